import { join } from 'node:path';

/** The three real Weidmüller BMEcat files in the shared folder beside the project. */
export const BMECAT_SAMPLES = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'bmecat');

export const BMECAT_SAMPLE_FILES = [
  'WEI_BMECat_1351590000.xml',
  'WEI_BMECat_1609801044.xml',
  'WEI_BMECat_7760056069.xml',
] as const;

/** The path of one sample. */
export function bmecatSample(name: (typeof BMECAT_SAMPLE_FILES)[number]): string {
  return join(BMECAT_SAMPLES, name);
}

/**
 * A generated BMEcat 2005 catalogue of `count` products (J-0, J-1...) with ten features each: big
 * enough that its import is still running when a test cancels or stops it.
 */
export function featureCatalogue(count: number): string {
  const products: string[] = [];
  for (let i = 0; i < count; i++) {
    const features = Array.from(
      { length: 10 },
      (_, j) =>
        `<FEATURE><FNAME>F${j}</FNAME><FVALUE lang="deu">${i * j}</FVALUE><FUNIT>mm</FUNIT></FEATURE>`,
    ).join('');
    products.push(
      `<PRODUCT><SUPPLIER_PID>J-${i}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Teil ${i}</DESCRIPTION_SHORT>` +
        `</PRODUCT_DETAILS><PRODUCT_FEATURES>${features}</PRODUCT_FEATURES></PRODUCT>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE>' +
    `</CATALOG></HEADER><T_NEW_CATALOG>\n${products.join('\n')}\n</T_NEW_CATALOG></BMECAT>\n`
  );
}
