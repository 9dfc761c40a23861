import { ValidationError } from '../../domain/errors.js';
import type { SpreadsheetFormat } from './spreadsheet-export.js';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const SPREADSHEET_MEDIA_TYPES = ['text/csv', XLSX_MEDIA_TYPE];

/**
 * The spreadsheet format an upload's Content-Type names (undefined: not a spreadsheet, BMEcat's
 * XML). A CSV declared in another charset than UTF-8 is refused before a byte is stored: pim reads
 * UTF-8 only and never stores text decoded in the wrong charset. `mode` is BMEcat's.
 */
export function spreadsheetFormatOfMediaType(
  contentType: string | undefined,
  mode: string | undefined,
): SpreadsheetFormat | undefined {
  const [type = '', ...parameters] = (contentType ?? '').split(';').map((p) => p.trim());
  const essence = type.toLowerCase();
  const format = essence === 'text/csv' ? 'csv' : essence === XLSX_MEDIA_TYPE ? 'xlsx' : undefined;
  if (!format) return undefined;
  const charset = parameters
    .map((p) => /^charset\s*=\s*"?([^"]*)"?$/i.exec(p)?.[1])
    .find((c) => c !== undefined);
  if (format === 'csv' && charset !== undefined && !/^utf-?8$/i.test(charset))
    throw new ValidationError(
      `The CSV file is declared as charset=${charset}: pim reads CSV as UTF-8 only; save it as CSV UTF-8`,
      'SPREADSHEET_INVALID',
    );
  if (mode !== undefined)
    throw new ValidationError(
      'mode applies to BMEcat imports; a spreadsheet import creates and updates rows',
    );
  return format;
}
