import type { CatalogueState } from '../../catalogue-route.js';

/** The grid's query parameters for a state (filters and sort), as the rows and count endpoints take them. */
export function gridParams(state: CatalogueState, sort: { by: string; dir: string }): URLSearchParams {
  const params = new URLSearchParams();
  params.set('sort', sort.by);
  params.set('dir', sort.dir);
  if (state.q) params.set('q', state.q);
  if (state.groupId !== null) {
    params.set('groupId', String(state.groupId));
    if (state.subgroups) params.set('subgroups', 'true');
  }
  params.set('main', state.mainOnly ? 'true' : 'false');
  if (state.updatedSince) params.set('updatedSince', state.updatedSince);
  if (state.textLang && state.text) {
    params.set('textLang', state.textLang);
    params.set('text', state.text);
  }
  if (state.ftidref && state.feature) {
    params.set('ftidref', state.ftidref);
    params.set('feature', state.feature);
  }
  if (state.lang) params.set('lang', state.lang);
  return params;
}

/** Rows fetched per request: a block is the unit of the grid's cache. */
export const BLOCK = 100;

/** The number of matches of the grid's parameters (`key`: gridParams(...).toString()). */
export function countPath(key: string): string {
  return `/products/count?${key}`;
}

/** A block of rows: after its predecessor's cursor when known (keyset), else at its position. */
export function blockPath(key: string, block: number, after?: string | null): string {
  const position = after ? `after=${encodeURIComponent(after)}` : `at=${block * BLOCK}`;
  return `/products/rows?${key}&limit=${BLOCK}&${position}`;
}
