import { Type, type Static } from '@sinclair/typebox';
import { FEATURE_VALUES_MAX, FTIDREF_MAX, FUNIT_MAX } from './feature.rules.js';
import type { FeatureDto as DomainFeatureDto } from './feature.types.js';
import { Id, LanguageCode, Nullable } from '../common.schemas.js';
import { LanguageValue, TextEntryDto } from '../texts/text.schemas.js';

export const Ftidref = Type.String({
  minLength: 1,
  maxLength: FTIDREF_MAX,
  description:
    'FT_IDREF, the stable feature reference; any characters (ECLASS ids such as 0173-1#02-AAF040#004 are common). ' +
    'Percent-encode it in the path (# as %23, / as %2F, space as %20)',
  examples: ['0173-1#02-AAF040#004'],
});

export const FeatureDto = Type.Object(
  {
    ftidref: Type.String({ description: 'FT_IDREF' }),
    funit: Nullable(
      Type.String({ description: "The product's unit, else the definition's default unit, else null" }),
    ),
    names: Type.Array(TextEntryDto, {
      description:
        "Names from the workspace's feature definition, ordered by language (empty for a new FT_IDREF)",
    }),
    values: Type.Array(TextEntryDto, {
      description:
        'Values ordered by language, one per language as these routes set them (zxx: without language); one ' +
        'written through the product sheet may hold several of a language, in their order',
    }),
  },
  { title: 'FeatureDto', additionalProperties: false },
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _featureDtoMatches: Same<Static<typeof FeatureDto>, DomainFeatureDto> = true;
void _featureDtoMatches;

export const SetFeatureValuesRequest = Type.Object(
  {
    ftidref: Type.Optional({
      ...Ftidref,
      description: 'Optional; when sent it must equal the ftidref of the path (else 400)',
    }),
    funit: Type.Optional(
      Nullable(
        Type.String({
          maxLength: FUNIT_MAX,
          description:
            "When sent, replaces the product's unit; null falls back to the definition's default unit",
        }),
      ),
    ),
    values: Type.Array(LanguageValue, {
      maxItems: FEATURE_VALUES_MAX,
      description:
        'Values per language; the languages named are set (upsert), the others keep their values. ' +
        'A language may appear once (ger and deu are the same language)',
    }),
  },
  {
    title: 'SetFeatureValuesRequest',
    additionalProperties: false,
    examples: [
      {
        funit: 'mm',
        values: [
          { lang: 'deu', value: '13' },
          { lang: 'eng', value: '13' },
        ],
      },
      { ftidref: '0173-1#02-AAF040#004', values: [{ lang: 'eng', value: 'steel, zinc-plated' }] },
    ],
  },
);

/** A feature with its FT_IDREF and values, as a request sets it (several at once: product sheets, bulk). */
export const FeatureInput = Type.Object(
  { ...SetFeatureValuesRequest.properties, ftidref: Ftidref },
  { additionalProperties: false },
);

export const FeatureParams = Type.Object({ id: Id, ftidref: Ftidref }, { additionalProperties: false });
export const FeatureLangParams = Type.Object(
  { id: Id, ftidref: Ftidref, lang: LanguageCode },
  { additionalProperties: false },
);
