import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';
import { CreateProductSheetRequest } from './product-sheet.schemas.js';
import { sheetModelParts } from './product-model.schemas.js';
import { CreateProductRequest, SupplierPidReference, UpdateProductRequest } from './product.schemas.js';
import { BULK_DOCUMENTS_MAX } from './product-limits.js';

const { supplierPid: _key, ...updatableFields } = UpdateProductRequest.properties;
const { shortTexts, longTexts, features } = CreateProductSheetRequest.properties;

/**
 * One product of a bulk upsert, keyed by supplierPid: created when no product has it, else
 * updated (the fields sent change, the texts and features sent are set, the others stay), as
 * the MCP tools create_product and update_product do. Built from the same schemas.
 */
export const BulkProductDocument = Type.Object(
  {
    supplierPid: CreateProductRequest.properties.supplierPid,
    ...updatableFields,
    shortTexts,
    longTexts,
    features,
    groupId: Type.Optional(
      Nullable({
        ...Id,
        description: 'Puts the product into this group (database key); null: out of its group',
      }),
    ),
    ...sheetModelParts,
    masterSupplierPid: Type.Optional({
      ...SupplierPidReference,
      description:
        'Makes a new product a variant of the main product with this supplierPid (stored, or a document of the ' +
        'same batch). On an existing product it must name its current main product: it cannot be changed',
    }),
  },
  {
    title: 'BulkProductDocument',
    additionalProperties: false,
    examples: [
      {
        supplierPid: 'BS-18-LI',
        ean: '4006381333115',
        shortTexts: [
          { lang: 'deu', value: 'Akku-Bohrschrauber 18 V' },
          { lang: 'eng', value: 'Cordless drill 18 V' },
        ],
        features: [{ ftidref: '0173-1#02-AAF040#004', funit: 'V', values: [{ lang: 'deu', value: '18' }] }],
        groupId: 3,
      },
      { supplierPid: 'BS-18-LI-2AH', masterSupplierPid: 'BS-18-LI', name: 'Cordless drill 18 V, 2 Ah' },
    ],
  },
);

const Status = Type.Integer({
  description: '201 created, 200 updated (or deleted), else the status the single endpoint would answer',
});
const ResultError = {
  error: Type.Optional(
    Type.String({ description: 'Why the document was refused (as the single endpoint says it)' }),
  ),
  code: Type.Optional(Type.String({ description: 'Machine-readable code from the error catalogue' })),
};

export const BulkProductResult = Type.Object(
  {
    supplierPid: Nullable(Type.String({ description: "The document's supplierPid; null when it has none" })),
    id: Nullable(Type.Integer({ description: 'The product; null when the document was refused' })),
    status: Status,
    ...ResultError,
  },
  { title: 'BulkProductResult', additionalProperties: false },
);

export const BulkDeleteRequest = Type.Object(
  {
    supplierPids: Type.Optional(
      Type.Array(SupplierPidReference, {
        minItems: 1,
        maxItems: BULK_DOCUMENTS_MAX,
        description: 'Products by supplierPid',
      }),
    ),
    ids: Type.Optional(
      Type.Array(Id, { minItems: 1, maxItems: BULK_DOCUMENTS_MAX, description: 'Products by database id' }),
    ),
  },
  {
    title: 'BulkDeleteRequest',
    additionalProperties: false,
    description: `Exactly one of supplierPids and ids, up to ${BULK_DOCUMENTS_MAX} entries`,
    examples: [{ supplierPids: ['BS-18-LI', 'BS-18-LI-2AH'] }],
  },
);

export const BulkDeleteResult = Type.Object(
  {
    supplierPid: Nullable(
      Type.String({ description: 'The supplierPid the product had; null when not found' }),
    ),
    id: Nullable(Type.Integer({ description: 'The id the product had; null when not found' })),
    status: Status,
    ...ResultError,
  },
  { title: 'BulkDeleteResult', additionalProperties: false },
);

export type BulkProductDocumentInput = Static<typeof BulkProductDocument>;
export type BulkProductResultDto = Static<typeof BulkProductResult>;
export type BulkDeleteInput = Static<typeof BulkDeleteRequest>;
export type BulkDeleteResultDto = Static<typeof BulkDeleteResult>;
