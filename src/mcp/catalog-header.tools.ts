import { getCatalogIdentity, setCatalogIdentity } from '../domain/catalogue/catalog-identity.service.js';
import { CatalogIdentity, CatalogIdentityChange } from '../domain/catalogue/catalog-identity.schemas.js';
import { RIGHTS } from '../domain/users/roles.js';
import { Type } from '@sinclair/typebox';
import { defineTool } from './tool.js';

/** The HEADER's ids and names a BMEcat export writes, as GET and PUT /api/export/header. */
export const catalogHeaderTools = [
  defineTool({
    name: 'get_catalog_header',
    title: 'Get the BMEcat header ids',
    description:
      'The catalogue ids and names every BMEcat export of the open workspace writes in its HEADER: catalogId ' +
      '(CATALOG_ID), catalogVersion, catalogName, supplierName, supplierId and supplierIdType; null where none ' +
      'is set (the export then keeps what an imported file\u2019s HEADER said, else names the workspace).',
    input: Type.Object({}, { additionalProperties: false }),
    output: CatalogIdentity,
    effect: 'read',
    right: RIGHTS.read,
    workspace: true,
    run: (ctx) => getCatalogIdentity(ctx),
  }),
  defineTool({
    name: 'set_catalog_header',
    title: 'Set the BMEcat header ids',
    description:
      'Sets the fields given of the BMEcat HEADER the open workspace\u2019s exports write (null clears one; the ' +
      'others stay): catalogId (≤ 20 characters), catalogVersion ("1.0": up to 3 digits, a dot, up to 3), ' +
      'catalogName (≤ 100), supplierName (≤ 50), supplierId (≤ 250) and supplierIdType (gln, duns, ' +
      'supplier_specific, ...). Returns every field.',
    input: CatalogIdentityChange,
    output: CatalogIdentity,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, input) => setCatalogIdentity(ctx, input),
  }),
];
