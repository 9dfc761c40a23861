import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';
import { ProductGroupDto } from '../groups/group.schemas.js';
import { TextEntryDto } from '../texts/text.schemas.js';
import { ProductDto, UpdateProductRequest } from './product.schemas.js';
import { DTO_FIELDS, SHEET_FIELDS } from '../../db/catalogue/product-fields.js';
import { fieldInput, fieldSchemas } from './product-field.schemas.js';
import { sheetModelParts } from './product-model.schemas.js';
import { ProductSheetDto } from './product-sheet.schemas.js';
import { TEXT_LANGUAGES_MAX } from './product-limits.js';

/**
 * The body of PUT /api/product/{id}/sheet: the whole sheet, as GET answers it. Its read-only
 * parts (ids, names derived from texts and groups, counts, timestamps, the variants) may be sent
 * back as they came and are ignored; every other part replaces the product's.
 */

const readOnly = <T extends TSchema>(schema: T) =>
  Type.Optional({
    ...schema,
    description: `Read-only: ignored when sent. ${schema.description ?? ''}`.trim(),
  });

const { supplierPid } = Type.Required(Type.Pick(UpdateProductRequest, ['supplierPid'])).properties;

const SheetProduct = Type.Object(
  {
    supplierPid,
    // Text fields: absent, as null, clears one (the sheet replaces the stored product).
    ...fieldSchemas(DTO_FIELDS, fieldInput),
    id: readOnly(ProductDto.properties.id),
    name: readOnly({ ...ProductDto.properties.name, description: 'the short texts decide it' }),
    masterProduct: readOnly(ProductDto.properties.masterProduct),
    variantCount: readOnly(ProductDto.properties.variantCount),
    masterProductId: readOnly(ProductDto.properties.masterProductId),
    createdAt: readOnly(ProductDto.properties.createdAt),
    updatedAt: readOnly(ProductDto.properties.updatedAt),
  },
  { additionalProperties: false, description: "The product's fields; absent optional fields are cleared" },
);

const SheetGroupRef = Type.Object(
  {
    id: { ...Id, description: 'The group (database key)' },
    groupId: readOnly(ProductGroupDto.properties.groupId),
    name: readOnly(ProductGroupDto.properties.name),
    catalogGroupId: readOnly(Nullable(Type.String())),
  },
  { additionalProperties: false },
);

const Texts = (kind: string) =>
  Type.Array(TextEntryDto, {
    maxItems: TEXT_LANGUAGES_MAX,
    description: `${kind} texts, one per language: the languages not listed are deleted`,
  });

const parts = sheetModelParts;

export const ProductSheetWriteRequest = Type.Object(
  {
    product: SheetProduct,
    shortTexts: Texts('Short (DESCRIPTIONSHORT)'),
    longTexts: Texts('Long (DESCRIPTIONLONG)'),
    features: Type.Array(parts.allFeatures.items, {
      maxItems: parts.allFeatures.maxItems,
      description: 'Every feature occurrence in order: replaces all of them',
    }),
    group: Type.Optional(
      Nullable(
        Type.Object(
          {
            id: Id,
            groupId: readOnly(ProductGroupDto.properties.groupId),
            name: readOnly(ProductGroupDto.properties.name),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    groups: Type.Array(SheetGroupRef, {
      maxItems: parts.groupIds.maxItems,
      description: 'Every group in order: replaces them; `group`, when sent, must be the first of them',
    }),
    ...fieldSchemas(SHEET_FIELDS, fieldInput),
    keywords: Type.Array(parts.keywords.items, { maxItems: parts.keywords.maxItems }),
    media: Type.Array(parts.media.items, { maxItems: parts.media.maxItems }),
    fragments: Type.Array(parts.fragments.items, { maxItems: parts.fragments.maxItems }),
    variants: readOnly(ProductSheetDto.properties.variants),
  },
  {
    title: 'ProductSheetWriteRequest',
    additionalProperties: false,
    description:
      'A whole product sheet (as GET /api/product/{id}/sheet answers it) replacing the stored one; read-only ' +
      'parts are ignored',
  },
);

export type ProductSheetWrite = Static<typeof ProductSheetWriteRequest>;
