import { useCallback, useSyncExternalStore } from 'react';
import type { GridSortBy } from '../window/grid-columns.constants.js';

/**
 * The catalogue view's state as the address holds it (#/?q=…&group=…&product=…): Reload,
 * Back/Forward and a copied link restore the search, the filters, the sort and the open product.
 */
export interface CatalogueState {
  q: string;
  groupId: number | null;
  subgroups: boolean;
  mainOnly: boolean;
  updatedSince: string;
  textLang: string;
  text: 'has' | 'lacks' | '';
  ftidref: string;
  feature: 'has' | 'lacks' | '';
  sort: GridSortBy | null;
  dir: 'asc' | 'desc';
  /** The language of the name column ('' = the workspace's default). */
  lang: string;
  product: number | 'new' | null;
  /** The editor alone, without the grid beside it. */
  alone: boolean;
}

export const EMPTY_STATE: CatalogueState = {
  q: '',
  groupId: null,
  subgroups: false,
  mainOnly: false,
  updatedSince: '',
  textLang: '',
  text: '',
  ftidref: '',
  feature: '',
  sort: null,
  dir: 'asc',
  lang: '',
  product: null,
  alone: false,
};

const SORTS: readonly string[] = ['id', 'supplierPid', 'name', 'updated'];

function positiveInt(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | '' {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

/** The state an address names; what it does not name (or names wrongly) is the default. */
export function parseCatalogueState(hash: string): CatalogueState {
  const query = hash.indexOf('?');
  const params = new URLSearchParams(query < 0 ? '' : hash.slice(query + 1));
  const product = params.get('product');
  const sort = params.get('sort');
  return {
    q: params.get('q') ?? '',
    groupId: positiveInt(params.get('group')),
    subgroups: params.get('sub') === '1',
    mainOnly: params.get('main') === '1',
    updatedSince: params.get('since') ?? '',
    textLang: params.get('textLang') ?? '',
    text: oneOf(params.get('text'), ['has', 'lacks'] as const),
    ftidref: params.get('ftidref') ?? '',
    feature: oneOf(params.get('feature'), ['has', 'lacks'] as const),
    sort: sort !== null && SORTS.includes(sort) ? (sort as GridSortBy) : null,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    lang: params.get('lang') ?? '',
    product: product === 'new' ? 'new' : positiveInt(product),
    alone: params.get('alone') === '1',
  };
}

/** The address of a state: only what differs from the default, in a fixed order. */
export function catalogueHash(state: CatalogueState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.groupId !== null) params.set('group', String(state.groupId));
  if (state.subgroups) params.set('sub', '1');
  if (state.mainOnly) params.set('main', '1');
  if (state.updatedSince) params.set('since', state.updatedSince);
  if (state.textLang && state.text) {
    params.set('textLang', state.textLang);
    params.set('text', state.text);
  }
  if (state.ftidref && state.feature) {
    params.set('ftidref', state.ftidref);
    params.set('feature', state.feature);
  }
  if (state.sort) params.set('sort', state.sort);
  if (state.sort && state.dir === 'desc') params.set('dir', 'desc');
  if (state.lang) params.set('lang', state.lang);
  if (state.product !== null) params.set('product', String(state.product));
  if (state.product !== null && state.alone) params.set('alone', '1');
  const text = params.toString();
  return text ? `#/?${text}` : '#/';
}

/** Asked before the open product or the view changes: false keeps them (unsaved changes the user keeps). */
let leaveGuard: (() => boolean) | undefined;

/** The editor's guard against leaving with unsaved changes; returns the removal. */
export function setLeaveGuard(guard: () => boolean): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = undefined;
  };
}

/** Whether the window may move away from the open product now (asks the user if there are unsaved changes). */
export function mayLeave(): boolean {
  return leaveGuard === undefined || leaveGuard();
}

/**
 * The address the window shows. The window's own moves set it after asking (navigate), so that the
 * guard below does not ask twice; a move of the browser's (Back, Forward, a typed or linked
 * address) is checked when it happens.
 */
let shown = typeof window === 'undefined' ? '' : window.location.hash;

/** Whether an address is the catalogue's (#/, its state after ?): the only view with an editor. */
export function isCatalogue(hash: string): boolean {
  return hash === '' || hash === '#' || hash === '#/' || hash.startsWith('#/?');
}

/** Whether moving between two addresses leaves the open product: another product, or another view. */
function leavesProduct(from: string, to: string): boolean {
  if (!isCatalogue(from)) return false;
  if (!isCatalogue(to)) return true;
  return parseCatalogueState(from).product !== parseCatalogueState(to).product;
}

/**
 * Back/Forward with unsaved changes: the browser has already moved the address (hashchange cannot
 * be cancelled), so when the user stays the address is put back as a new entry (the history's own
 * move cannot be undone from here) and the event goes no further: the views never see the move
 * and the editor keeps its form. Registered when the module loads, before any view subscribes,
 * and in the capture phase, so that it runs first.
 */
function guardAddress(event: HashChangeEvent): void {
  const next = window.location.hash;
  if (next === shown) return;
  if (leavesProduct(shown, next) && !mayLeave()) {
    event.stopImmediatePropagation();
    window.history.pushState(null, '', shown || '#/');
    return;
  }
  shown = next;
}

if (typeof window !== 'undefined') window.addEventListener('hashchange', guardAddress, { capture: true });

/**
 * Moves the window to an address it decided on (the user was asked already where that was due):
 * a new history entry, or with `replace` the current one replaced (no hashchange of its own, so
 * one is sent for the views).
 */
export function navigate(hash: string, options?: { replace?: boolean }): void {
  shown = hash;
  if (options?.replace) {
    window.history.replaceState(window.history.state, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = hash;
  }
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/**
 * The catalogue's state from the address, and a setter: a change is a new history entry (Back
 * undoes it), except with `replace` (typing in the search box replaces its own entry).
 */
export function useCatalogueState(): [
  CatalogueState,
  (change: Partial<CatalogueState>, options?: { replace?: boolean }) => void,
] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const state = parseCatalogueState(hash);
  const update = useCallback((change: Partial<CatalogueState>, options?: { replace?: boolean }) => {
    const current = parseCatalogueState(window.location.hash);
    if ('product' in change && change.product !== current.product && !mayLeave()) return;
    const next = catalogueHash({ ...current, ...change });
    if (next === (window.location.hash || '#/')) return;
    navigate(next, options);
  }, []);
  return [state, update];
}
