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
