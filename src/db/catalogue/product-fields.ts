/**
 * The product's own text fields, one definition each: the column of table `product`, the JSON key,
 * where the field shows, its limit and its description. Everything else is derived from this list:
 * the Kysely table type (workspace.schema.ts), ProductDto and the requests (TypeBox, hence OpenAPI
 * and the agent tools), the checks, both dialects' JSON (product-sql.*.ts, sheet-sql.*.ts), the
 * single writes and the bulk upsert's set-based rows. docs/recipes.md, "A field of the product".
 *
 * Values are text or null (never set, or cleared). Fields of other types (numbers, lists, texts
 * per language) have tables or parts of their own.
 */
export interface ProductFieldDefinition {
  /** The key in DTOs, requests and the sheet. */
  readonly key: string;
  /** The column of table product. */
  readonly column: string;
  /**
   * Where it shows: `product` on ProductDto (REST, agents, the window; the spec's ProductDto grows
   * only by addition, decisions.md), `sheet` on the product sheet only (GET/PUT .../sheet, the agent
   * tools, bulk documents), beside the model's other parts.
   */
  readonly shown: 'product' | 'sheet';
  /** ProductDto's order is the spec's: supplierIdRef comes before name, the others after it. */
  readonly beforeName?: boolean;
  readonly maxLength: number;
  /** What it is, for OpenAPI and the tool schemas. */
  readonly description: string;
}

export const PRODUCT_FIELDS = [
  {
    key: 'supplierIdRef',
    column: 'supplier_id_ref',
    shown: 'product',
    beforeName: true,
    maxLength: 128,
    description: 'Supplier id reference',
  },
  { key: 'ean', column: 'ean', shown: 'product', maxLength: 128, description: 'EAN / GTIN' },
  {
    key: 'manufacturerPid',
    column: 'manufacturer_pid',
    shown: 'product',
    maxLength: 128,
    description: 'Manufacturer product id',
  },
  {
    key: 'manufacturerName',
    column: 'manufacturer_name',
    shown: 'sheet',
    maxLength: 256,
    description: 'MANUFACTURER_NAME',
  },
  {
    key: 'orderUnit',
    column: 'order_unit',
    shown: 'sheet',
    maxLength: 32,
    description:
      'ORDER_UNIT: the unit the product is ordered in, a UN/ECE Recommendation 20 code (C62: piece)',
  },
  {
    key: 'contentUnit',
    column: 'content_unit',
    shown: 'sheet',
    maxLength: 32,
    description: 'CONTENT_UNIT: the unit of what one order unit contains (UN/ECE Recommendation 20)',
  },
] as const satisfies readonly ProductFieldDefinition[];

export type ProductField = (typeof PRODUCT_FIELDS)[number];
export type ProductFieldKey = ProductField['key'];
export type DtoField = Extract<ProductField, { shown: 'product' }>;
export type SheetField = Extract<ProductField, { shown: 'sheet' }>;

/** The fields' columns as Kysely's table type has them. */
export type ProductFieldColumns = { [F in ProductField as F['column']]: string | null };
/** The columns of ProductDto's fields: what a read that answers ProductDto selects. */
export type DtoFieldColumns = { [F in DtoField as F['column']]: string | null };
/** The fields' values by key; absent: not sent (a write) or not shown. */
export type ProductFieldValues<F extends ProductField = ProductField> = { [K in F['key']]?: string | null };

const isDto = (f: ProductField): f is DtoField => f.shown === 'product';
const isBeforeName = (f: ProductField) => 'beforeName' in f && f.beforeName === true;

/** ProductDto's fields in their order: those before name, then those after it. */
export const DTO_FIELDS_BEFORE_NAME: readonly DtoField[] = PRODUCT_FIELDS.filter(
  (f): f is DtoField => isDto(f) && isBeforeName(f),
);
export const DTO_FIELDS_AFTER_NAME: readonly DtoField[] = PRODUCT_FIELDS.filter(
  (f): f is DtoField => isDto(f) && !isBeforeName(f),
);
export const DTO_FIELDS: readonly DtoField[] = PRODUCT_FIELDS.filter(isDto);
export const SHEET_FIELDS: readonly SheetField[] = PRODUCT_FIELDS.filter(
  (f): f is SheetField => f.shown === 'sheet',
);

/** The fields sent in `input` (a value or null), by key. */
export function sentFields(input: Readonly<Record<string, unknown>>): ProductFieldValues {
  const sent: Record<string, string | null> = {};
  for (const f of PRODUCT_FIELDS) {
    const value = input[f.key];
    if (value !== undefined) sent[f.key] = value as string | null;
  }
  return sent;
}

/** The columns of the fields sent, for an UPDATE's SET. */
export function fieldColumns(values: ProductFieldValues): Partial<ProductFieldColumns> {
  const columns: Record<string, string | null> = {};
  for (const f of PRODUCT_FIELDS) {
    const value = values[f.key];
    if (value !== undefined) columns[f.column] = value;
  }
  return columns as Partial<ProductFieldColumns>;
}

/** Every field's column, null where not sent: a new product's row. */
export function allFieldColumns(values: ProductFieldValues): ProductFieldColumns {
  const columns: Record<string, string | null> = {};
  for (const f of PRODUCT_FIELDS) columns[f.column] = values[f.key] ?? null;
  return columns as ProductFieldColumns;
}
