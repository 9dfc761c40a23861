/** The window's catalogue calls (/ui/api/products, /ui/api/languages): the product editor's. */
import { api } from './api.js';
import type { LanguageEntry, ProductSheet, VersionedSheet } from './catalogue-types.js';

export type {
  FeatureOccurrence,
  LanguageEntry,
  ProductSheet,
  TextEntry,
  VersionedSheet,
} from './catalogue-types.js';

export const loadSheet = (id: number) => api<VersionedSheet>('GET', `/products/${id}/sheet`);

/** Saves the whole sheet; `revision` null overwrites whatever changed meanwhile. */
export const saveSheet = (id: number, revision: string | null, sheet: ProductSheet) =>
  api<VersionedSheet>('PUT', `/products/${id}/sheet`, { revision, sheet });

export const createProduct = (document: Record<string, unknown>) =>
  api<VersionedSheet>('POST', '/products', document);

export const createVariant = (mainId: number, document: Record<string, unknown>) =>
  api<VersionedSheet>('POST', `/products/${mainId}/variants`, document);

export const deleteProduct = (id: number) => api<{ deleted: number }>('DELETE', `/products/${id}`);

export const loadLanguages = () => api<LanguageEntry[]>('GET', '/languages');
