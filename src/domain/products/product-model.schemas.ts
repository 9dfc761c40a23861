import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';
import { FeatureDto, Ftidref } from '../features/feature.schemas.js';
import { FUNIT_MAX } from '../features/feature.rules.js';
import { LanguageValue, TextEntryDto } from '../texts/text.schemas.js';
import { TEXT_VALUE_MAX } from '../texts/text.rules.js';
import { SHEET_FIELDS } from '../../db/catalogue/product-fields.js';
import { fieldInput, fieldSchemas } from './product-field.schemas.js';
import {
  ALL_FEATURES_MAX,
  FRAGMENT_PLACE_MAX,
  FRAGMENTS_MAX,
  GROUPS_MAX,
  KEYWORD_MAX,
  KEYWORDS_MAX,
  MEDIA_MAX,
  OCCURRENCE_VALUES_MAX,
  MEDIA_DESCRIPTIONS_MAX,
  MEDIA_SOURCE_MAX,
  MODEL_FIELD_MAX,
  VALUE_IDREFS_MAX,
} from './product-model.rules.js';

/**
 * The parts of a product that real supplier catalogues carry beyond the spec's DTOs
 * (docs/products.md, "The product sheet"): every feature occurrence with its details, keywords,
 * media, the manufacturer's name, several groups and content kept verbatim. Read and written as
 * parts of the product sheet; the spec's DTOs keep their shape.
 */

const Field = (description: string) => Nullable(Type.String({ maxLength: MODEL_FIELD_MAX, description }));

/** What a feature occurrence carries beside its values (BMEcat FEATURE's other elements). */
export const FeatureDetails = Type.Object(
  {
    valueIdrefs: Type.Array(Type.String({ minLength: 1, maxLength: MODEL_FIELD_MAX }), {
      maxItems: VALUE_IDREFS_MAX,
      description: 'VALUE_IDREF: references to values of the feature system, in order',
    }),
    valueDetails: Type.Array(LanguageValue, {
      maxItems: VALUE_IDREFS_MAX,
      description: 'FVALUE_DETAILS per language (zxx: without language), ordered by language',
    }),
    fid: Field("FID: the occurrence's own id within the product"),
    fparentId: Field('FPARENT_ID: the FID of the occurrence it belongs to'),
    referenceSystem: Field('REFERENCE_FEATURE_SYSTEM_NAME of the block the feature stood in (ECLASS-9.0)'),
    referenceGroupId: Field('REFERENCE_FEATURE_GROUP_ID of that block'),
  },
  { title: 'FeatureDetails', additionalProperties: false },
);

/** A feature occurrence as the sheet shows it: a FeatureDto and its details. */
export const FeatureOccurrenceDto = Type.Object(
  {
    ...FeatureDto.properties,
    values: Type.Array(TextEntryDto, {
      description:
        'Values ordered by language (zxx: without language); a language may have several, in their order',
    }),
    details: Nullable({ ...FeatureDetails, description: 'Null when the occurrence has none' }),
  },
  { title: 'FeatureOccurrenceDto', additionalProperties: false },
);

/** A feature occurrence as a write sends it: a whole occurrence (values of every language). */
export const FeatureOccurrenceInput = Type.Object(
  {
    ftidref: Ftidref,
    funit: Type.Optional(
      Nullable(
        Type.String({ maxLength: FUNIT_MAX, description: "The unit; null or absent: the definition's" }),
      ),
    ),
    names: Type.Optional(
      Type.Array(TextEntryDto, { description: "Read-only (the definition's names): ignored when sent" }),
    ),
    values: Type.Array(LanguageValue, {
      maxItems: OCCURRENCE_VALUES_MAX,
      description:
        'Every value of the occurrence; a language may appear several times (zxx: without language)',
    }),
    details: Type.Optional(Nullable(FeatureDetails)),
  },
  { additionalProperties: false },
);

export const MediaDto = Type.Object(
  {
    type: Field('MIME_TYPE (image/jpeg, application/pdf, url, ...)'),
    source: Type.String({
      minLength: 1,
      maxLength: MEDIA_SOURCE_MAX,
      description: 'MIME_SOURCE: a path or URL',
    }),
    descriptions: Type.Array(LanguageValue, {
      maxItems: MEDIA_DESCRIPTIONS_MAX,
      description: 'MIME_DESCR per language, ordered by language',
    }),
    purpose: Field('MIME_PURPOSE (normal, thumbnail, data_sheet, ...)'),
    order: Nullable(Type.Integer({ minimum: -2147483648, maximum: 2147483647, description: 'MIME_ORDER' })),
  },
  { title: 'MediaDto', additionalProperties: false, description: 'A MIME entry of MIME_INFO, in order' },
);

export const SheetGroupDto = Type.Object(
  {
    id: Type.Integer({ description: 'Database key of the group' }),
    groupId: Type.String({ description: "pim's hierarchical id (ProductGroupDto.groupId)" }),
    name: Type.String({ description: 'As ProductGroupDto.name' }),
    catalogGroupId: Nullable(Type.String({ description: 'The GROUP_ID a catalogue gave the group' })),
  },
  { title: 'SheetGroupDto', additionalProperties: false },
);

export const FragmentDto = Type.Object(
  {
    place: Type.String({
      minLength: 1,
      maxLength: FRAGMENT_PLACE_MAX,
      description: 'Where the fragment stood, as the writer that kept it names it (docs/products.md)',
    }),
    xml: Type.String({
      minLength: 1,
      maxLength: TEXT_VALUE_MAX,
      description: 'The content pim does not model, verbatim (an XML fragment)',
    }),
  },
  { title: 'FragmentDto', additionalProperties: false },
);

const Keyword = Type.Object(
  { lang: LanguageValue.properties.lang, value: Type.String({ minLength: 1, maxLength: KEYWORD_MAX }) },
  { additionalProperties: false },
);

/** The model's parts of a write (MCP create/update_product, bulk documents): each replaces its part when sent. */
export const sheetModelParts = {
  ...fieldSchemas(SHEET_FIELDS, fieldInput),
  keywords: Type.Optional(
    Type.Array(Keyword, {
      maxItems: KEYWORDS_MAX,
      description: 'KEYWORD per language, in order: replaces all keywords when sent',
    }),
  ),
  media: Type.Optional(
    Type.Array(MediaDto, {
      maxItems: MEDIA_MAX,
      description: 'MIME entries in order: replace all when sent',
    }),
  ),
  groupIds: Type.Optional(
    Type.Array(Id, {
      maxItems: GROUPS_MAX,
      description:
        'Every group of the product in order (database keys): replaces them when sent; the first is groupId',
    }),
  ),
  fragments: Type.Optional(
    Type.Array(FragmentDto, {
      maxItems: FRAGMENTS_MAX,
      description: 'Content kept verbatim, in order: replaces it when sent',
    }),
  ),
  allFeatures: Type.Optional(
    Type.Array(FeatureOccurrenceInput, {
      maxItems: ALL_FEATURES_MAX,
      description:
        "The product's whole feature list in order, one ftidref several times included: replaces every " +
        'feature when sent (not with `features`)',
    }),
  ),
};

export type FeatureDetailsValue = Static<typeof FeatureDetails>;
export type FeatureOccurrenceValue = Static<typeof FeatureOccurrenceInput>;
export type Media = Static<typeof MediaDto>;
export type Fragment = Static<typeof FragmentDto>;
