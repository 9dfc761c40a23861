import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';
import { FeatureInput } from '../features/feature.schemas.js';
import { ProductGroupDto } from '../groups/group.schemas.js';
import { LanguageValue, TextEntryDto } from '../texts/text.schemas.js';
import { CreateProductRequest, ProductDto, UpdateProductRequest } from './product.schemas.js';
import { SHEET_FIELDS } from '../../db/catalogue/product-fields.js';
import { fieldSchemas, storedField } from './product-field.schemas.js';
import {
  FeatureOccurrenceDto,
  FragmentDto,
  MediaDto,
  SheetGroupDto,
  sheetModelParts,
} from './product-model.schemas.js';
import { TEXT_LANGUAGES_MAX, SHEET_FEATURES_MAX } from './product-limits.js';

/**
 * The product sheet: a product with everything that belongs to it, in one answer (the MCP
 * tool get_product, the window's product editor). Built from the REST DTOs, never a copy.
 */
export const ProductSheetDto = Type.Object(
  {
    product: ProductDto,
    shortTexts: Type.Array(TextEntryDto, { description: 'DESCRIPTIONSHORT in every language, by language' }),
    longTexts: Type.Array(TextEntryDto, { description: 'DESCRIPTIONLONG in every language, by language' }),
    features: Type.Array(FeatureOccurrenceDto, {
      description:
        'Every feature occurrence in order, one ftidref several times included (the single feature routes ' +
        'address the first occurrence of an ftidref)',
    }),
    group: Nullable(
      Type.Object(
        {
          id: ProductGroupDto.properties.id,
          groupId: ProductGroupDto.properties.groupId,
          name: ProductGroupDto.properties.name,
        },
        {
          additionalProperties: false,
          description: "The product's first group (REST's groupId); null without a group",
        },
      ),
    ),
    groups: Type.Array(SheetGroupDto, {
      description:
        'Every group of the product in order: the first (group), then the others a catalogue gave it',
    }),
    ...fieldSchemas(SHEET_FIELDS, storedField),
    keywords: Type.Array(TextEntryDto, {
      description: 'KEYWORD per language, ordered by language, each language in its order',
    }),
    media: Type.Array(MediaDto, { description: 'MIME_INFO entries in order' }),
    fragments: Type.Array(FragmentDto, {
      description: 'Content pim does not model, kept verbatim with its place, in order',
    }),
    variants: Type.Array(
      Type.Object(
        {
          id: ProductDto.properties.id,
          supplierPid: ProductDto.properties.supplierPid,
          name: ProductDto.properties.name,
        },
        { additionalProperties: false },
      ),
      { description: 'Variants in id order (empty for a variant)' },
    ),
  },
  { title: 'ProductSheetDto', additionalProperties: false },
);

const TextValues = (kind: string) =>
  Type.Optional(
    Type.Array(LanguageValue, {
      maxItems: TEXT_LANGUAGES_MAX,
      description: `${kind} texts to set, one per language (upsert: languages not named keep their text)`,
    }),
  );

/** What a product sheet write may carry beside the product's own fields. */
const sheetDetails = {
  shortTexts: TextValues('Short (DESCRIPTIONSHORT)'),
  longTexts: TextValues('Long (DESCRIPTIONLONG)'),
  features: Type.Optional(
    Type.Array(FeatureInput, {
      maxItems: SHEET_FEATURES_MAX,
      description:
        'Features to set, as PUT /api/product/{id}/features/{ftidref}: the languages named are set, ' +
        'the others and the features not named stay (the first occurrence of each ftidref)',
    }),
  ),
  ...sheetModelParts,
};

export const CreateProductSheetRequest = Type.Object(
  {
    ...CreateProductRequest.properties,
    ...sheetDetails,
    groupId: Type.Optional({ ...Id, description: 'Puts the product into this group (database key)' }),
  },
  { additionalProperties: false },
);

export const UpdateProductSheetRequest = Type.Object(
  {
    id: { ...Id, description: 'The product (database id)' },
    ...UpdateProductRequest.properties,
    ...sheetDetails,
    groupId: Type.Optional(
      Nullable({ ...Id, description: 'Moves the product into this group; null takes it out of its group' }),
    ),
  },
  { additionalProperties: false },
);

export type ProductSheet = Static<typeof ProductSheetDto>;
export type CreateProductSheetInput = Static<typeof CreateProductSheetRequest>;
export type UpdateProductSheetInput = Omit<Static<typeof UpdateProductSheetRequest>, 'id'>;
export type FeatureInputValue = Static<typeof FeatureInput>;
