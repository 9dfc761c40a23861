import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Texts {
  [key: string]: string | Texts;
}

/**
 * The window's texts, as src/ui/i18n.ts loads them. i18next shows the English text for a key
 * German lacks, and the key itself for one English lacks, so a missing translation is easy to miss
 * on screen.
 */
const locale = (lang: 'en' | 'de') =>
  JSON.parse(readFileSync(new URL(`../../src/ui/locales/${lang}.json`, import.meta.url), 'utf8')) as Texts;

/** Every text by its key as the components ask for it (`login.ended.disabled`). */
function byKey(tree: Texts, prefix = ''): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') texts.set(`${prefix}${key}`, value);
    else for (const entry of byKey(value, `${prefix}${key}.`)) texts.set(...entry);
  }
  return texts;
}

/** The values a text fills in (`{{name}}`), in order of name. */
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([^}\s]+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("the window's English and German texts", () => {
  const en = byKey(locale('en'));
  const de = byKey(locale('de'));

  it('have the same keys', () => {
    expect({
      onlyEnglish: [...en.keys()].filter((key) => !de.has(key)),
      onlyGerman: [...de.keys()].filter((key) => !en.has(key)),
    }).toEqual({ onlyEnglish: [], onlyGerman: [] });
  });

  it('fill in the same values', () => {
    const differing = [...en]
      .filter(([key, text]) => de.has(key) && placeholders(text).join() !== placeholders(de.get(key)!).join())
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });
});
