/**
 * BMEcat 2005.1's length limits (maxLength in characters) of the elements pim writes from its model
 * (bmecat_2005_1.xsd): the export reports values over them, `pim validate` checks a file for them.
 */
export const BMECAT_LIMITS = {
  SUPPLIER_PID: 32,
  SUPPLIER_IDREF: 250,
  DESCRIPTION_SHORT: 150,
  DESCRIPTION_LONG: 64000,
  INTERNATIONAL_PID: 50,
  MANUFACTURER_PID: 50,
  MANUFACTURER_NAME: 50,
  KEYWORD: 50,
  FT_IDREF: 60,
  FT_ID: 60,
  FT_NAME: 80,
  FNAME: 60,
  FVALUE: 60,
  FUNIT: 20,
  VALUE_IDREF: 60,
  FVALUE_DETAILS: 250,
  REFERENCE_FEATURE_GROUP_ID: 60,
  MIME_TYPE: 30,
  MIME_SOURCE: 255,
  MIME_DESCR: 250,
  MIME_PURPOSE: 20,
  PROD_ID_TO: 80,
  GROUP_ID: 50,
  PARENT_ID: 50,
  GROUP_NAME: 50,
  CATALOG_NAME: 100,
} as const;

export type LimitedElement = keyof typeof BMECAT_LIMITS;

/** The length of a value as the schema counts it: characters (code points), not UTF-16 units. */
export function characters(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** The problem of a value over its element's limit, or undefined. */
export function overLimit(name: LimitedElement, value: string): string | undefined {
  const max = BMECAT_LIMITS[name];
  if (value.length <= max) return undefined;
  const length = characters(value);
  return length > max ? `${name} is ${length} characters, over BMEcat's ${max}` : undefined;
}
