/** The window's catalogue calls (/ui/api/products, /ui/api/languages): the product editor's. */
import { api } from './api.js';
import { startEarly } from './early-requests.js';
import type { LanguageEntry, ProductSheet, VersionedSheet } from './catalogue-types.js';

export type {
  FeatureOccurrence,
  LanguageEntry,
  ProductSheet,
  TextEntry,
  VersionedSheet,
} from './catalogue-types.js';

const sheetPath = (id: number) => `/products/${id}/sheet`;

export const loadSheet = (id: number) => api<VersionedSheet>('GET', sheetPath(id));

/**
 * Asks for a product's sheet now, for the editor that is about to open it (loadSheet then takes
 * the answer): the one request leaves with the key that opens it, not after the view re-rendered.
 */
export const startSheet = (id: number) => void startEarly(sheetPath(id));

/** Saves the whole sheet; `revision` null overwrites whatever changed meanwhile. */
export const saveSheet = (id: number, revision: string | null, sheet: ProductSheet) =>
  api<VersionedSheet>('PUT', `/products/${id}/sheet`, { revision, sheet });

export const createProduct = (document: Record<string, unknown>) =>
  api<VersionedSheet>('POST', '/products', document);

export const createVariant = (mainId: number, document: Record<string, unknown>) =>
  api<VersionedSheet>('POST', `/products/${mainId}/variants`, document);

export const deleteProduct = (id: number) => api<{ deleted: number }>('DELETE', `/products/${id}`);

export const loadLanguages = () => api<LanguageEntry[]>('GET', '/languages');
