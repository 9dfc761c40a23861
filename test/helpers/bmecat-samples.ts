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
