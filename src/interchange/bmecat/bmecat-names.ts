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

/** The namespaces seen so far and whether each is BMEcat's: a file uses one or two, on every element. */
const namespaces = new Map<string, boolean>();

/**
 * The name pim reads an element under: a BMEcat element's 2005 name (1.2 names renamed), undefined
 * for an element of another namespace (xml-records.ts names it by namespace and local name).
 */
export function bmecatElementName(uri: string, local: string): string | undefined {
  let own = namespaces.get(uri);
  if (own === undefined) {
    own = isBmecatNamespace(uri);
    if (namespaces.size < 64) namespaces.set(uri, own);
  }
  return own ? (NAMES_OF_1_2.get(local) ?? local) : undefined;
}

/**
 * BMEcat 1.2 names and the 2005 names pim reads them as: a 1.2 catalogue is read into the same
 * model, and what pim keeps of it verbatim is written back under the 2005 names.
 */
const NAMES_OF_1_2: ReadonlyMap<string, string> = new Map(
  Object.entries({
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
  }),
);
