import { Type } from '@sinclair/typebox';
import { Id, LanguageCode, Nullable } from '../domain/common.schemas.js';
import { deleteFeature, deleteFeatureValue, setFeature } from '../domain/features/feature.service.js';
import { FeatureDto, FeatureInput } from '../domain/features/feature.schemas.js';
import { setTexts } from '../domain/products/product-sheet.service.js';
import { deleteText } from '../domain/texts/text.service.js';
import { LanguageValue, TextEntryDto } from '../domain/texts/text.schemas.js';
import { RIGHTS } from '../domain/users/roles.js';
import type { TextKind } from '../db/workspace.schema.js';
import { defineTool } from './tool.js';
import { TEXT_LANGUAGES_MAX } from '../domain/products/product-limits.js';

const ProductId = { ...Id, description: 'The product (database id)' };
const Kind = Type.Union([Type.Literal('short'), Type.Literal('long')], {
  description: 'short: DESCRIPTIONSHORT (the name), long: DESCRIPTIONLONG',
});
const KINDS: Record<'short' | 'long', TextKind> = { short: 'DESCRIPTIONSHORT', long: 'DESCRIPTIONLONG' };
const Lang = { ...LanguageCode, description: `Language. ${LanguageCode.description}` };

export const textFeatureTools = [
  defineTool({
    name: 'set_texts',
    title: 'Set texts',
    description:
      'Sets the short or long text of a product in several languages at once (upsert; languages not named ' +
      'keep their text), in one transaction. Values are stored exactly as sent (markup, white space). ' +
      'Returns all texts of that kind.',
    input: Type.Object(
      {
        id: ProductId,
        kind: Kind,
        texts: Type.Array(LanguageValue, {
          maxItems: TEXT_LANGUAGES_MAX,
          description: 'One entry per language',
        }),
      },
      { additionalProperties: false },
    ),
    output: Type.Object(
      { id: Type.Integer(), kind: Kind, texts: Type.Array(TextEntryDto) },
      { additionalProperties: false },
    ),
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { id, kind, texts }) {
      return { id, kind, texts: await setTexts(ctx, id, KINDS[kind], texts) };
    },
  }),
  defineTool({
    name: 'delete_text',
    title: 'Delete a text',
    description:
      'Deletes the short or long text of a product in one language (NOT_FOUND when there is none).',
    input: Type.Object({ id: ProductId, kind: Kind, lang: Lang }, { additionalProperties: false }),
    output: Type.Object(
      { id: Type.Integer(), kind: Kind, lang: Type.String() },
      { additionalProperties: false },
    ),
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { id, kind, lang }) {
      await deleteText(ctx, id, KINDS[kind], lang);
      return { id, kind, lang };
    },
  }),
  defineTool({
    name: 'set_feature',
    title: 'Set a feature',
    description:
      'Sets the values of one feature (FT_IDREF) of a product per language, as PUT ' +
      '/api/product/{id}/features/{ftidref}: the feature is added when the product has none of that ' +
      'ftidref; the languages named are set, the others keep their values; funit, when sent, replaces ' +
      "the product's unit (null: the definition's default unit). Returns the FeatureDto.",
    input: Type.Object({ id: ProductId, ...FeatureInput.properties }, { additionalProperties: false }),
    output: FeatureDto,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, { id, ftidref, funit, values }) => setFeature(ctx, id, ftidref, { funit, values }),
  }),
  defineTool({
    name: 'delete_feature',
    title: 'Delete a feature',
    description:
      "Removes a feature from a product with all its values, or with lang only that language's value " +
      '(the feature stays). NOT_FOUND when the product has no such feature or value.',
    input: Type.Object(
      { id: ProductId, ftidref: FeatureInput.properties.ftidref, lang: Type.Optional(Lang) },
      { additionalProperties: false },
    ),
    output: Type.Object(
      { id: Type.Integer(), ftidref: Type.String(), lang: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { id, ftidref, lang }) {
      if (lang === undefined) await deleteFeature(ctx, id, ftidref);
      else await deleteFeatureValue(ctx, id, ftidref, lang);
      return { id, ftidref, lang: lang ?? null };
    },
  }),
];
