/**
 * The order BMEcat 2005.1's schema gives the children of the elements an export builds from the
 * model and kept fragments (bmecat_2005_1.xsd): a writer puts each element, modelled or kept, at
 * its place in this order, so that import-then-export gives a valid document whatever the supplier
 * had interleaved. Names not listed (another namespace's, or not in the schema) come last.
 */
export const SCHEMA_ORDER: Readonly<Record<string, readonly string[]>> = {
  PRODUCT: [
    'SUPPLIER_PID',
    'SUPPLIER_IDREF',
    'PRODUCT_DETAILS',
    'PRODUCT_FEATURES',
    'PRODUCT_ORDER_DETAILS',
    'PRODUCT_PRICE_DETAILS',
    'MIME_INFO',
    'USER_DEFINED_EXTENSIONS',
    'PRODUCT_REFERENCE',
    'PRODUCT_CONTACTS',
    'PRODUCT_IPP_DETAILS',
    'PRODUCT_LOGISTIC_DETAILS',
    'PRODUCT_CONFIG_DETAILS',
  ],
  PRODUCT_DETAILS: [
    'DESCRIPTION_SHORT',
    'DESCRIPTION_LONG',
    'INTERNATIONAL_PID',
    'EAN',
    'SUPPLIER_ALT_PID',
    'BUYER_PID',
    'MANUFACTURER_PID',
    'MANUFACTURER_IDREF',
    'MANUFACTURER_NAME',
    'MANUFACTURER_TYPE_DESCR',
    'ERP_GROUP_BUYER',
    'ERP_GROUP_SUPPLIER',
    'DELIVERY_TIME',
    'SPECIAL_TREATMENT_CLASS',
    'KEYWORD',
    'REMARKS',
    'SEGMENT',
    'PRODUCT_ORDER',
    'PRODUCT_STATUS',
    'INTERNATIONAL_RESTRICTIONS',
    'ACCOUNTING_INFO',
    'AGREEMENT_REF',
    'PRODUCT_TYPE',
    'PRODUCT_CATEGORY',
  ],
  PRODUCT_FEATURES: [
    'REFERENCE_FEATURE_SYSTEM_NAME',
    'REFERENCE_FEATURE_GROUP_ID',
    'REFERENCE_FEATURE_GROUP_NAME',
    'REFERENCE_FEATURE_GROUP_ID2',
    'GROUP_PRODUCT_ORDER',
    'FEATURE',
    'FEATURE_GROUP',
  ],
  FEATURE_GROUP: ['FEATURE_GROUP_NAME', 'FEATURE_GROUP_DESCRIPTION', 'REFERENCE_FEATURE_GROUP_ID', 'FEATURE'],
  FEATURE: [
    'FNAME',
    'FT_IDREF',
    'FTEMPLATE',
    'FVALUE',
    'VALUE_IDREF',
    'VARIANTS',
    'FUNIT',
    'FORDER',
    'FDESCR',
    'FVALUE_DETAILS',
    'FVALUE_TYPE',
    'FID',
    'FPARENT_ID',
    'FEATURE',
  ],
  FTEMPLATE: [
    'FT_ID',
    'FT_NAME',
    'FT_SHORTNAME',
    'FT_DESCR',
    'FT_VERSION',
    'FT_GROUP_IDREF',
    'FT_GROUP_NAME',
    'FT_DEPENDENCIES',
    'FEATURE_CONTENT',
  ],
  PRODUCT_ORDER_DETAILS: [
    'ORDER_UNIT',
    'CONTENT_UNIT',
    'NO_CU_PER_OU',
    'SUPPLIER_PIDREF',
    'SUPPLIER_IDREF',
    'PRICE_QUANTITY',
    'QUANTITY_MIN',
    'QUANTITY_INTERVAL',
    'QUANTITY_MAX',
    'PACKING_UNITS',
  ],
  MIME_INFO: ['MIME'],
  CATALOG_STRUCTURE: [
    'GROUP_ID',
    'GROUP_NAME',
    'GROUP_DESCRIPTION',
    'PARENT_ID',
    'GROUP_ORDER',
    'MIME_INFO',
    'USER_DEFINED_EXTENSIONS',
    'KEYWORD',
  ],
  CATALOG_GROUP_SYSTEM: [
    'GROUP_SYSTEM_ID',
    'GROUP_SYSTEM_NAME',
    'CATALOG_STRUCTURE',
    'GROUP_SYSTEM_DESCRIPTION',
  ],
  T_NEW_CATALOG: [
    'FEATURE_SYSTEM',
    'CLASSIFICATION_SYSTEM',
    'CATALOG_GROUP_SYSTEM',
    'FORMULAS',
    'IPP_DEFINITIONS',
    'PRODUCT',
    'PRODUCT_TO_CATALOGGROUP_MAP',
  ],
};

/** The local name of the element a fragment's XML starts with (`<udx:COLOR ...>` gives `udx:COLOR`). */
export function fragmentName(xml: string): string {
  const match = /^\s*<([^\s/>]+)/.exec(xml);
  return match?.[1] ?? '';
}

export interface Placed {
  name: string;
  xml: string;
}

/** Each container's names with their rank, and the rank of names not listed. */
const RANKS: ReadonlyMap<string, { ranks: ReadonlyMap<string, number>; last: number }> = new Map(
  Object.entries(SCHEMA_ORDER).map(([container, names]) => [
    container,
    { ranks: new Map(names.map((name, index) => [name, index])), last: names.length },
  ]),
);
const UNLISTED = { ranks: new Map<string, number>(), last: 0 };

/**
 * Merges modelled elements and kept ones of one container into the schema's order: a stable sort
 * by each name's rank, so that elements of one name keep the order they had (modelled before kept
 * when both carry one name).
 */
export function inSchemaOrder(container: string, items: readonly Placed[]): string {
  const { ranks, last } = RANKS.get(container) ?? UNLISTED;
  // Writers build their parts in the schema's order, so most lists are in order already: then the
  // sort would give them back unchanged, and they are joined as they are.
  let xml = '';
  let previous = -1;
  for (const item of items) {
    const rank = ranks.get(item.name) ?? last;
    if (rank < previous) return joined(schemaOrdered(container, items));
    previous = rank;
    xml += item.xml;
  }
  return xml;
}

function joined(items: readonly Placed[]): string {
  let xml = '';
  for (const item of items) xml += item.xml;
  return xml;
}

/** The items in the schema's order for `container`, as inSchemaOrder merges them. */
export function schemaOrdered<T extends Placed>(container: string, items: readonly T[]): T[] {
  const { ranks, last } = RANKS.get(container) ?? UNLISTED;
  return items
    .map((item, index) => ({ item, index, rank: ranks.get(item.name) ?? last }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}
