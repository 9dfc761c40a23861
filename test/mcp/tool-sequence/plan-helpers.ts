import type { ListFault } from './commands.js';
import { BAD_LANGS, SPELLINGS, stored, type Entry } from './model.js';

/** Helpers for planning a call: picking from the model, ordering errors, building faulty arguments. */

/** Ids that never exist: far above anything a run creates. */
export const UNKNOWN_ID = 9_000_000;

export function at<T>(items: readonly T[], index: number | null | undefined): T | undefined {
  return index === null || index === undefined || items.length === 0
    ? undefined
    : items[index % items.length];
}

/** With `wanted`, the items that `has` (when there are any); else all. A null ref stays unknown. */
export function prefer<T>(items: readonly T[], wanted: boolean, has: (item: T) => boolean): readonly T[] {
  const preferred = wanted ? items.filter(has) : [];
  return preferred.length > 0 ? preferred : items;
}

/** The first error the server reaches, given the checks in the order the services make them. */
export function firstError(checks: readonly (readonly [boolean, string])[]): string | null {
  return checks.find(([failed]) => failed)?.[1] ?? null;
}

export function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

export const encode = encodeURIComponent;

/** Adds a bad language or a language named twice (ger beside deu) to a list of values. */
export function spoilEntries(entries: Entry[], fault: ListFault, pickIndex: number): Entry[] {
  if (fault === 'badLang') {
    const copy = [...entries];
    copy.splice(pickIndex % (copy.length + 1), 0, { lang: at(BAD_LANGS, pickIndex)!, value: 'x' });
    return copy;
  }
  if (fault === 'dupLang') {
    const first = entries[pickIndex % Math.max(entries.length, 1)];
    const lang = first?.lang ?? 'deu';
    const alias = SPELLINGS.find((s) => s !== lang && stored(s) === stored(lang)) ?? lang;
    return [...(first ? entries : [{ lang, value: 'a' }]), { lang: alias, value: 'twice' }];
  }
  return entries;
}
