import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entriesJson, mergeEntries, parseEntries } from '../../src/domain/features/entry-list.rules.js';

const lang = fc.constantFrom('deu', 'eng', 'fra', 'zxx', 'ita', 'spa');
const entry = fc.record({ lang, value: fc.string() });
/** A stored list: one entry per language, ordered by language. */
const stored = fc
  .uniqueArray(entry, { selector: (e) => e.lang })
  .map((list) => [...list].sort((a, b) => (a.lang < b.lang ? -1 : 1)));

describe('stored entry lists (feature values, definition names)', () => {
  it('merging sets the changed languages, keeps the others, and stays ordered by language', () => {
    fc.assert(
      fc.property(stored, fc.array(entry), (current, changes) => {
        const merged = mergeEntries(current, changes);
        const expected = new Map(current.map((e) => [e.lang, e.value]));
        for (const c of changes) expected.set(c.lang, c.value);
        expect(new Map(merged.map((e) => [e.lang, e.value]))).toEqual(expected);
        expect(merged.map((e) => e.lang)).toEqual([...expected.keys()].sort());
      }),
    );
  });

  it('is stored as compact JSON with the keys in TextEntryDto order, and read back as written', () => {
    fc.assert(
      fc.property(stored, (list) => {
        const text = entriesJson(list.map(({ value, lang }) => ({ value, lang })));
        expect(text).toBe(JSON.stringify(list));
        expect(parseEntries(text)).toEqual(list);
      }),
    );
    expect(entriesJson([{ lang: 'deu', value: 'a"\\\n' }])).toBe('[{"lang":"deu","value":"a\\"\\\\\\n"}]');
  });

  it('refuses a stored text that is not a list', () => {
    expect(() => parseEntries('{"lang":"deu"}')).toThrow(/not a JSON array/);
  });
});
