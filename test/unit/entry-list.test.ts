import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  entriesJson,
  entryPairs,
  mergeEntries,
  parseEntries,
} from '../../src/domain/features/entry-list.rules.js';

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

  it('reads pairs as parseEntries reads the list, in the stored form and any other JSON form', () => {
    // Values with quotes, backslashes, controls and unicode; languages that are not codes too, and
    // several entries of one language (a feature occurrence may hold them).
    const awkward = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('"', '\\', '\\"', '","value":"', '}]', '},{'),
    );
    const anyEntry = fc.record({ lang: fc.oneof(lang, awkward), value: awkward });
    const forms = [
      (list: unknown[]) => JSON.stringify(list),
      (list: unknown[]) => JSON.stringify(list, null, 1),
      (list: unknown[]) => JSON.stringify(list).replaceAll(',', ', ').replaceAll(':', ': '),
    ];
    const pairs: string[] = ['left over'];
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 5 }), fc.constantFrom(...forms), (list, form) => {
        const text = form(list);
        expect(entryPairs(text, pairs)).toEqual(parseEntries(text).flatMap((e) => [e.lang, e.value]));
      }),
      { numRuns: 500 },
    );
    // Another key order, another key, a list that ends early: JSON.parse's reading.
    expect(entryPairs('[{"value":"1","lang":"deu"}]', pairs)).toEqual(['deu', '1']);
    expect(entryPairs('[{"lang":"deu","value":"1","x":2}]', pairs)).toEqual(['deu', '1']);
    expect(entryPairs('[{"lang":"deu","value":"1"},{"lang":"eng","value":"2"}]', pairs)).toEqual([
      'deu',
      '1',
      'eng',
      '2',
    ]);
    expect(() => entryPairs('[{"lang":"deu","value":"1"}', pairs)).toThrow(SyntaxError);
    expect(() => entryPairs('{"lang":"deu","value":"1"}', pairs)).toThrow(/not a JSON array/);
  });

  it('refuses a stored text that is not a list', () => {
    expect(() => parseEntries('{"lang":"deu"}')).toThrow(/not a JSON array/);
  });
});
