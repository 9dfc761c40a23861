import { Type, type TOptional, type TSchema, type TUnsafe } from '@sinclair/typebox';
import type { ProductField } from '../../db/catalogue/product-fields.js';
import { Nullable } from '../common.schemas.js';

/** The schemas of the product's text fields (db/catalogue/product-fields.ts), one per field, by key. */
export type FieldSchemas<F extends ProductField, S extends TSchema> = { [K in F['key']]: S };

export function fieldSchemas<F extends ProductField, S extends TSchema>(
  fields: readonly F[],
  schema: (field: F) => S,
): FieldSchemas<F, S> {
  return Object.fromEntries(fields.map((f) => [f.key, schema(f)])) as FieldSchemas<F, S>;
}

/** A field as it is read: its text, or null when never set or cleared. */
export const storedField = (f: ProductField): TUnsafe<string | null> =>
  Nullable(Type.String({ description: f.description }));

/** A field in a write: absent keeps it, null clears it. */
export const fieldInput = (f: ProductField): TOptional<TUnsafe<string | null>> =>
  Type.Optional(
    Nullable(
      Type.String({
        maxLength: f.maxLength,
        description: `${f.description}, at most ${f.maxLength} characters; null clears it`,
      }),
    ),
  );
