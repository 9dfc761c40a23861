import type { TextEntry } from '../texts/text.repository.js';

/**
 * A feature's values and a definition's names are stored as one JSON text each, the
 * TextEntryDto[] REST and the sheet send, ordered by language (docs/storage.md, "Feature
 * values"): reads splice it into their JSON as it is, writes go through these functions so that
 * the stored text stays in that form.
 */

/** The entries of a stored list (its JSON text, from either backend: db/postgres.ts reads json as text). */
export function parseEntries(stored: string): TextEntry[] {
  const list: unknown = JSON.parse(stored);
  if (!Array.isArray(list)) throw new Error('a stored entry list is not a JSON array');
  return list as TextEntry[];
}

/** The start of an entry and the key between its two strings, as entriesJson writes them. */
const ENTRY_START = '{"lang":"';
const VALUE_KEY = '","value":"';

/**
 * The entries of a stored list into `pairs` (cleared first) as language, value, language, value…:
 * a read of many lists (a spreadsheet export's million first occurrences) without an object per
 * list and entry. The form entriesJson writes is read by slicing between the quotes, which is
 * exact there: a JSON string holds a raw `"` only at its ends, and one without a `\` is its own
 * text. Anything else (an escape, spaces, another key order or key) is read by JSON.parse instead,
 * so every stored list reads as parseEntries reads it.
 */
export function entryPairs(stored: string, pairs: string[]): string[] {
  pairs.length = 0;
  if (stored === '[]' || slicedPairs(stored, pairs)) return pairs;
  pairs.length = 0;
  for (const { lang, value } of parseEntries(stored)) pairs.push(lang, value);
  return pairs;
}

/** False where the text is not entriesJson's plain form (pairs may then hold a part). */
function slicedPairs(s: string, pairs: string[]): boolean {
  if (s.charCodeAt(0) !== 0x5b /* [ */) return false;
  let at = 1;
  for (;;) {
    if (!s.startsWith(ENTRY_START, at)) return false;
    const langAt = at + ENTRY_START.length;
    const langEnd = s.indexOf('"', langAt);
    if (langEnd < 0 || !s.startsWith(VALUE_KEY, langEnd)) return false;
    const valueAt = langEnd + VALUE_KEY.length;
    const valueEnd = s.indexOf('"', valueAt);
    if (valueEnd < 0) return false;
    const lang = s.slice(langAt, langEnd);
    const value = s.slice(valueAt, valueEnd);
    if (lang.includes('\\') || value.includes('\\')) return false;
    pairs.push(lang, value);
    // `}]` ends the list, `},` starts the next entry.
    if (s.charCodeAt(valueEnd + 1) !== 0x7d /* } */) return false;
    const next = s.charCodeAt(valueEnd + 2);
    if (next === 0x5d /* ] */) return valueEnd + 3 === s.length;
    if (next !== 0x2c /* , */) return false;
    at = valueEnd + 3;
  }
}

/** Byte order of the language codes, as the C collation and SQLite sort them. */
const byLang = (a: TextEntry, b: TextEntry) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0);

/**
 * `current` with the entries of `changes` set, by language: a language named in `changes` has its
 * entries (a feature occurrence may hold several of one language) replaced by those of `changes`,
 * the others keep theirs in their order.
 */
export function mergeEntries(current: readonly TextEntry[], changes: readonly TextEntry[]): TextEntry[] {
  // A language named twice in `changes` takes its last value.
  const set = new Map(changes.map((e) => [e.lang, e.value]));
  const kept = current.filter((e) => !set.has(e.lang));
  return [...kept, ...[...set].map(([lang, value]) => ({ lang, value }))].sort(byLang);
}

/** The stored form: compact JSON with the keys in TextEntryDto's order. */
export function entriesJson(entries: readonly TextEntry[]): string {
  return JSON.stringify(entries.map(({ lang, value }) => ({ lang, value })));
}
