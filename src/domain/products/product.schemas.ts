import { Type, type Static } from '@sinclair/typebox';
import { PAGE_LIMIT_MAX, FILTER_VALUE_MAX } from './product.filter.js';
import { SUPPLIER_PID_MAX } from './product.rules.js';
import {
  DTO_FIELDS,
  DTO_FIELDS_AFTER_NAME,
  DTO_FIELDS_BEFORE_NAME,
} from '../../db/catalogue/product-fields.js';
import { fieldInput, fieldSchemas, storedField } from './product-field.schemas.js';
import type { ProductDto as DomainProductDto } from './product.types.js';
import { TEXT_VALUE_MAX } from '../texts/text.rules.js';
import { Id, LanguageCode, Nullable } from '../common.schemas.js';
import { BLANK_NAME_PATTERN, NOT_BLANK_RULE } from '../names.js';

const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601, UTC',
  examples: ['2026-01-15T10:00:00.000Z'],
});

export const ProductDto = Type.Object(
  {
    id: Type.Integer({ description: 'Database id, used in URLs' }),
    supplierPid: Type.String({ description: 'Supplier product id, unique within the workspace' }),
    ...fieldSchemas(DTO_FIELDS_BEFORE_NAME, storedField),
    name: Type.String({
      description:
        'Short text (DESCRIPTIONSHORT) in the request language (`language` on create/update, `?lang=` on reads), ' +
        'else in the workspace default language; where that is missing, the first short text by language code; else ""',
    }),
    ...fieldSchemas(DTO_FIELDS_AFTER_NAME, storedField),
    masterProduct: Type.Boolean({ description: 'True for a main product, false for a variant' }),
    variantCount: Type.Integer({ description: 'Number of variants; 0 for a variant' }),
    masterProductId: Nullable(
      Type.Integer({ description: 'Id of the main product of a variant; null for a main product' }),
    ),
    createdAt: Timestamp,
    updatedAt: Type.String({
      format: 'date-time',
      description:
        'ISO 8601, UTC. Touched by every change to the product, its texts, features or group membership; ' +
        'a change to a variant (including creating or deleting one) also touches its main product',
    }),
  },
  {
    title: 'ProductDto',
    additionalProperties: false,
    description: 'A product or variant. Optional fields that were never set are null.',
  },
);

// The HTTP schema and the domain type describe the same object.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _productDtoMatches: Same<Static<typeof ProductDto>, DomainProductDto> = true;
void _productDtoMatches;

/**
 * A supplierPid that names a stored product (a main product by masterSupplierPid, bulk deletes):
 * not checked for blankness, so that a product stored before that rule can still be named.
 */
export const SupplierPidReference = Type.String({
  minLength: 1,
  maxLength: SUPPLIER_PID_MAX,
  description: `supplierPid of a stored product, 1 to ${SUPPLIER_PID_MAX} characters`,
});
const SupplierPid = Type.String({
  minLength: 1,
  maxLength: SUPPLIER_PID_MAX,
  pattern: BLANK_NAME_PATTERN,
  description:
    `Unique within the workspace, 1 to ${SUPPLIER_PID_MAX} characters, ${NOT_BLANK_RULE} (stored as sent); ` +
    'a taken value answers 409',
});
const Name = Type.String({
  pattern: BLANK_NAME_PATTERN,
  maxLength: TEXT_VALUE_MAX,
  description: `Stored as the short text (DESCRIPTIONSHORT) in \`language\`; ${NOT_BLANK_RULE}`,
});
const NameLanguage = Type.Optional({
  ...LanguageCode,
  description: 'Language of `name` and of the returned name; default: the workspace default language',
});

const productFields = {
  ...fieldSchemas(DTO_FIELDS, fieldInput),
  name: Type.Optional(Name),
  language: NameLanguage,
};

export const CreateProductRequest = Type.Object(
  {
    supplierPid: SupplierPid,
    ...productFields,
    masterProductId: Type.Optional({
      ...Id,
      description: 'Creates a variant of this main product (404 if unknown, 400 if it is a variant itself)',
    }),
  },
  {
    title: 'CreateProductRequest',
    additionalProperties: false,
    examples: [
      {
        supplierPid: 'BS-18-LI',
        name: 'Akku-Bohrschrauber 18 V',
        language: 'deu',
        ean: '4006381333115',
        manufacturerPid: 'ABS18-2',
      },
      { supplierPid: 'BS-18-LI-2AH', name: 'Cordless drill 18 V, 2 Ah', language: 'eng', masterProductId: 1 },
    ],
  },
);

export const CreateVariantRequest = Type.Object(
  { supplierPid: SupplierPid, ...productFields },
  {
    title: 'CreateVariantRequest',
    additionalProperties: false,
    description:
      'CreateProductRequest without masterProductId (400 if sent): the main product is the one in the path',
    examples: [{ supplierPid: 'BS-18-LI-4AH', name: 'Akku-Bohrschrauber 18 V, 4 Ah', language: 'deu' }],
  },
);

export const UpdateProductRequest = Type.Object(
  { supplierPid: Type.Optional(SupplierPid), ...productFields },
  {
    title: 'UpdateProductRequest',
    additionalProperties: false,
    description:
      'Partial update: only the fields sent change. masterProductId is not accepted (400). ' +
      '`language` alone changes nothing but the language of the returned name.',
    examples: [
      { name: 'Cordless drill/driver 18 V', language: 'eng' },
      { ean: '4006381333122' },
      { manufacturerPid: null },
    ],
  },
);

export const LangQuery = Type.Object(
  {
    lang: Type.Optional({
      ...LanguageCode,
      description: 'Language of ProductDto.name (default: the workspace default language)',
    }),
  },
  { additionalProperties: false },
);

const FilterValue = (description: string) =>
  Type.Optional(Type.String({ maxLength: FILTER_VALUE_MAX, description }));

/** Filters and keyset paging for product lists (also GET /api/group/{id}/products). */
export const ProductFilterQueryFields = {
  lang: LangQuery.properties.lang,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_LIMIT_MAX,
      description: `Page size (1 to ${PAGE_LIMIT_MAX}). Without it the whole list is returned. With it, the next page's URL is in the Link header (rel="next") when there is one`,
    }),
  ),
  after: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'Opaque cursor of the next page, taken from the Link header (keyset on id: stable while products change)',
    }),
  ),
  updatedSince: FilterValue(
    'ISO 8601 date or date-time with time zone: only products with updatedAt at or after it (delta sync; inclusive)',
  ),
  supplierPid: FilterValue('Exact supplierPid'),
  ean: FilterValue('Exact EAN'),
  q: FilterValue('Case-insensitive (ASCII) substring of supplierPid or of a short text in any language'),
};

export const ProductListQuery = Type.Object(
  {
    all: Type.Optional(Type.Boolean({ description: 'true includes variants; default: main products only' })),
    ...ProductFilterQueryFields,
  },
  { additionalProperties: false },
);

export const DeletedProductDto = Type.Object(
  {
    id: Type.Integer({ description: 'Id the deleted product had (ids are never reused)' }),
    supplierPid: Type.String({ description: 'supplierPid the deleted product had' }),
    deletedAt: Timestamp,
  },
  { title: 'DeletedProductDto', additionalProperties: false, description: 'A product deleted, kept 30 days' },
);

export const DeletedProductsQuery = Type.Object(
  {
    since: Type.String({
      maxLength: FILTER_VALUE_MAX,
      description:
        'ISO 8601 date or date-time with time zone: deletions at or after it (inclusive), at most 30 days back',
    }),
  },
  { additionalProperties: false },
);
