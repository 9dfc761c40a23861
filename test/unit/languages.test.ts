import fc from 'fast-check';
import { iso6392 } from 'iso-639-2';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.js';
import { lookupLanguage, normalizeLanguage } from '../../src/domain/languages/language.js';

// Every code of the standard; the package's `qaa-qtz` entry is the local-use range, not a code.
const known = new Set(
  iso6392.flatMap((e) => [e.iso6392B, e.iso6392T].filter((c): c is string => /^[a-z]{3}$/.test(c ?? ''))),
);

describe('language codes (ISO 639-2, /B and /T, case-insensitive, stored in /T form)', () => {
  it.each([
    ['deu', 'deu'],
    ['ger', 'deu'],
    ['GER', 'deu'],
    ['fre', 'fra'],
    ['Fra', 'fra'],
    ['eng', 'eng'],
    ['ENG', 'eng'],
    ['chi', 'zho'],
    ['ita', 'ita'],
  ])('%s is stored as %s', (code, stored) => {
    expect(lookupLanguage(code)).toBe(stored);
    expect(normalizeLanguage(code)).toBe(stored);
  });

  it.each(['', 'de', 'en', 'deutsch', 'xyz', 'qqq', 'qaa', 'qaa-qtz', ' deu', 'deu ', 'd-u', '123'])(
    '%j is not a language code',
    (code) => {
      expect(lookupLanguage(code)).toBeUndefined();
    },
  );

  it('throws a ValidationError naming the field and the value', () => {
    expect(() => normalizeLanguage('xx', 'lang')).toThrow(ValidationError);
    expect(() => normalizeLanguage('xx', 'lang')).toThrow(/lang 'xx'/);
    try {
      normalizeLanguage('klingon');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', detailCode: 'INVALID_LANGUAGE' });
    }
  });

  it('accepts every /B and /T code of the standard in any case, and the stored form is stable', () => {
    const codes = [...known];
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (code, upper) => {
          const mixed = [...code].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
          const stored = lookupLanguage(mixed);
          expect(stored).toBeDefined();
          expect(stored).toMatch(/^[a-z]{3}$/);
          expect(lookupLanguage(stored!)).toBe(stored);
          expect(normalizeLanguage(stored!)).toBe(stored);
        },
      ),
    );
  });

  it('refuses every string that is not a code of the standard', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), (value) => {
        fc.pre(!known.has(value.toLowerCase()));
        expect(lookupLanguage(value)).toBeUndefined();
        expect(() => normalizeLanguage(value)).toThrow(ValidationError);
      }),
    );
  });
});
