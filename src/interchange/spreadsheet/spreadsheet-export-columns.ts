import { ValidationError, atField } from '../../domain/errors.js';
import { normalizeLanguage } from '../../domain/languages/language.js';
import type { ColumnsInUse } from '../../domain/catalogue/catalogue-columns.service.js';
import {
  columnName,
  isColumnError,
  parseColumnName,
  SPREADSHEET_FIELDS,
  type SpreadsheetColumn,
} from './spreadsheet-columns.js';

/**
 * The columns of an export: those the caller names (checked: known names, defined features, no
 * name twice, languages among `languages` when both are given), or by default every field, then
 * `short[L]` and `long[L]` for each language in use (the default first), then for each feature in
 * use by ftidref its `.unit` and a column per language among its values.
 */
export function exportColumns(
  inUse: ColumnsInUse,
  names: readonly string[] | undefined,
  languageCodes: readonly string[] | undefined,
): SpreadsheetColumn[] {
  const chosen = languageCodes?.map((code) => normalizeLanguage(code, 'languages'));
  if (names !== undefined) return namedColumns(inUse, names, chosen);
  const columns: SpreadsheetColumn[] = SPREADSHEET_FIELDS.map((field) => ({ kind: 'field', field }));
  const texts = chosen ?? inUse.textLanguages;
  for (const text of ['short', 'long'] as const)
    for (const lang of texts) columns.push({ kind: 'text', text, lang });
  for (const { ftidref, languages } of inUse.features) {
    const langs = chosen === undefined ? languages : chosen.filter((l) => languages.includes(l));
    if (langs.length === 0) continue;
    columns.push({ kind: 'featureUnit', ftidref });
    for (const lang of langs) columns.push({ kind: 'featureValue', ftidref, lang });
  }
  return columns;
}

function refuse(message: string): never {
  throw atField(new ValidationError(message), 'columns');
}

function namedColumns(inUse: ColumnsInUse, names: readonly string[], chosen: string[] | undefined) {
  const defined = new Set(inUse.features.map((f) => f.ftidref));
  const seen = new Set<string>();
  return names.map((name) => {
    const column = parseColumnName(name);
    if (isColumnError(column)) refuse(`columns: ${column.error}`);
    const canonical = columnName(column);
    if (seen.has(canonical)) refuse(`columns: '${name}' is named twice`);
    seen.add(canonical);
    if ((column.kind === 'featureValue' || column.kind === 'featureUnit') && !defined.has(column.ftidref))
      refuse(`columns: '${name}' names feature '${column.ftidref}', which is not defined in this workspace`);
    if ((column.kind === 'text' || column.kind === 'featureValue') && chosen && !chosen.includes(column.lang))
      refuse(`columns: '${name}' is in language ${column.lang}, which languages leaves out`);
    return column;
  });
}

const COLUMN_START = new RegExp(
  `,(?=(?:${SPREADSHEET_FIELDS.join('|')})(?:,|$)|short\\[|long\\[|feature\\[)`,
);

/**
 * A comma list of column names as `columns=` and `--columns` give it. An FTIDREF may hold a comma,
 * so the list is split only at a comma that a column name follows.
 */
export function splitColumnList(list: string): string[] {
  return list.split(COLUMN_START);
}
