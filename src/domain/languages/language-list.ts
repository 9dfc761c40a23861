import { iso6392 } from 'iso-639-2';

/** A language of ISO 639-2 as a picker lists it: the stored code and its names. */
export interface LanguageEntry {
  code: string;
  en: string;
  de: string;
}

/**
 * German names from the runtime's CLDR data (Intl.DisplayNames): the iso-639-2 package has
 * English names only. Where CLDR has no name, Intl answers the code itself, and the English name
 * stands in.
 */
function germanName(code: string, alpha2: string | undefined, english: string): string {
  const names = new Intl.DisplayNames(['de'], { type: 'language', fallback: 'code' });
  for (const candidate of [alpha2, code]) {
    if (candidate === undefined) continue;
    try {
      const name = names.of(candidate);
      // `und` is CLDR's root locale, which it calls "root".
      if (name !== undefined && name !== candidate && name !== 'root') return name;
    } catch {
      // A code Intl does not accept as a language tag: the English name stands in.
    }
  }
  return english;
}

let list: LanguageEntry[] | undefined;

/**
 * Every ISO 639-2 language in its stored form (/T where one exists: deu, fra), by code; the
 * local-use range qaa-qtz is no code and is left out, as the language rules refuse it.
 */
export function languageList(): readonly LanguageEntry[] {
  list ??= iso6392
    .filter((entry) => /^[a-z]{3}$/.test(entry.iso6392B))
    .map((entry) => {
      const code = entry.iso6392T ?? entry.iso6392B;
      return { code, en: entry.name, de: germanName(code, entry.iso6391, entry.name) };
    })
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  return list;
}
