import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../common.schemas.js';

/**
 * Who and what a BMEcat export names in its HEADER (CATALOG_ID, CATALOG_VERSION, CATALOG_NAME,
 * SUPPLIER_ID with its type, SUPPLIER_NAME), set per workspace. null: not set, so the export keeps
 * what the imported file's HEADER said, or names the workspace. Limits as BMEcat 2005.1's.
 */
export const CatalogIdentity = Type.Object(
  {
    catalogId: Nullable(Type.String({ minLength: 1, maxLength: 20, description: 'CATALOG_ID' })),
    catalogVersion: Nullable(
      Type.String({
        pattern: '^[0-9]{1,3}\\.[0-9]{1,3}$',
        description: 'CATALOG_VERSION: up to 3 digits, a dot, up to 3 digits',
        examples: ['1.0'],
      }),
    ),
    catalogName: Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'CATALOG_NAME' })),
    supplierName: Nullable(Type.String({ minLength: 1, maxLength: 50, description: 'SUPPLIER_NAME' })),
    supplierId: Nullable(Type.String({ minLength: 1, maxLength: 250, description: 'SUPPLIER_ID' })),
    supplierIdType: Nullable(
      Type.String({
        pattern: '^\\w{1,250}$',
        description: "SUPPLIER_ID's type: duns, gln, iln, supplier_specific, buyer_specific, ...",
        examples: ['gln'],
      }),
    ),
  },
  { additionalProperties: false },
);
export type CatalogIdentity = Static<typeof CatalogIdentity>;

/** A change: the fields named are set (null clears one), the others stay. */
export const CatalogIdentityChange = Type.Partial(CatalogIdentity, { additionalProperties: false });
export type CatalogIdentityChange = Static<typeof CatalogIdentityChange>;

export const CATALOG_IDENTITY_FIELDS = Object.keys(CatalogIdentity.properties) as (keyof CatalogIdentity)[];
