import { Type } from '@sinclair/typebox';
import { TEXT_VALUE_MAX } from './text.rules.js';
import { Id, LanguageCode } from '../common.schemas.js';

export const TextEntryDto = Type.Object(
  {
    lang: Type.String({ description: 'ISO 639-2 language code in stored form (deu, eng, fra)' }),
    value: Type.String({ description: 'Exactly as stored: no trimming, no HTML cleaning' }),
  },
  { title: 'TextEntryDto', additionalProperties: false },
);

export const SetTextRequest = Type.Object(
  {
    value: Type.String({
      maxLength: TEXT_VALUE_MAX,
      description: `Up to ${TEXT_VALUE_MAX.toLocaleString('en')} characters, stored byte for byte (unicode, markup, whitespace)`,
    }),
  },
  {
    title: 'SetTextRequest',
    additionalProperties: false,
    examples: [
      { value: 'Akku-Bohrschrauber 18 V' },
      { value: '<p>Kompakter Bohrschrauber mit <b>2-Gang-Getriebe</b>.</p>\n<ul><li>18 V</li></ul>' },
    ],
  },
);

/** One value in one language, as requests send it (features, and texts in bulk). */
export const LanguageValue = Type.Object(
  {
    lang: LanguageCode,
    value: Type.String({ maxLength: TEXT_VALUE_MAX, description: 'Stored exactly as sent' }),
  },
  { additionalProperties: false },
);

export const TextLangParams = Type.Object({ id: Id, lang: LanguageCode }, { additionalProperties: false });
