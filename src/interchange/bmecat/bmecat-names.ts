import type { XmlElement } from './xml-records.js';

/**
 * The namespaces BMEcat files come with: 2005 (`http://www.bmecat.org/bmecat/2005`), 2005.1, 2005.2,
 * suppliers' own variants of them (Weidmüller writes `http://www.bmecat.org/bmecat/2005+onto`), the
 * 1.2 schema's, and none at all. Any namespace under www.bmecat.org counts as the catalogue's own:
 * its elements are read by their local names. Elements of other namespaces (a UDX extension's) are
 * kept verbatim where they stand.
 */
export function isBmecatNamespace(uri: string): boolean {
  return uri === '' || /^https?:\/\/www\.bmecat\.org\//i.test(uri);
}

/**
 * BMEcat 1.2 names and the 2005 names pim reads them as: a 1.2 catalogue is read into the same
 * model, and what pim keeps of it verbatim is written back under the 2005 names.
 */
const NAMES_OF_1_2: Readonly<Record<string, string>> = {
  ARTICLE: 'PRODUCT',
  SUPPLIER_AID: 'SUPPLIER_PID',
  ARTICLE_DETAILS: 'PRODUCT_DETAILS',
  ARTICLE_FEATURES: 'PRODUCT_FEATURES',
  ARTICLE_ORDER_DETAILS: 'PRODUCT_ORDER_DETAILS',
  ARTICLE_PRICE_DETAILS: 'PRODUCT_PRICE_DETAILS',
  ARTICLE_PRICE: 'PRODUCT_PRICE',
  ARTICLE_REFERENCE: 'PRODUCT_REFERENCE',
  ART_ID_TO: 'PROD_ID_TO',
  ARTICLE_TO_CATALOGGROUP_MAP: 'PRODUCT_TO_CATALOGGROUP_MAP',
  ART_ID: 'PROD_ID',
  BUYER_AID: 'BUYER_PID',
  ARTICLE_STATUS: 'PRODUCT_STATUS',
  ARTICLE_LOGISTIC_DETAILS: 'PRODUCT_LOGISTIC_DETAILS',
};

/** The 2005 name of a 1.2 element (or the name itself). */
export function bmecatName(name: string): string {
  return NAMES_OF_1_2[name] ?? name;
}

/** Renames a tree's BMEcat elements in place from 1.2 to 2005 names. */
export function normalizeNames(element: XmlElement): void {
  if (isBmecatNamespace(element.uri)) element.name = bmecatName(element.name);
  for (const child of element.children) if (typeof child !== 'string') normalizeNames(child);
}
