import { sql, type RawBuilder } from 'kysely';
import { DTO_FIELDS_AFTER_NAME, DTO_FIELDS_BEFORE_NAME, type DtoField } from './product-fields.js';

export type JsonEntry = readonly [key: string, value: RawBuilder<unknown>];

const fieldEntries = (fields: readonly DtoField[]): JsonEntry[] =>
  fields.map((f) => [f.key, sql.ref(`p.${f.column}`)]);

/**
 * ProductDto's keys in the spec's order with the SQL of each value, for the product aliased `p`:
 * both dialects' JSON builders write them in this order (toDto in product.service.ts does too; a
 * test compares the bytes). `derived` are the dialect's masterProduct and variantCount.
 */
export function productDtoEntries(name: RawBuilder<string>, derived: readonly JsonEntry[]): JsonEntry[] {
  return [
    ['id', sql`p.id`],
    ['supplierPid', sql`p.supplier_pid`],
    ...fieldEntries(DTO_FIELDS_BEFORE_NAME),
    ['name', name],
    ...fieldEntries(DTO_FIELDS_AFTER_NAME),
    ...derived,
    ['masterProductId', sql`p.master_id`],
    ['createdAt', sql`p.created_at`],
    ['updatedAt', sql`p.updated_at`],
  ];
}
