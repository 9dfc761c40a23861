import { PRODUCT_FIELDS, type ProductFieldKey } from '../../db/catalogue/product-fields.js';
import { lookupLanguage } from '../../domain/languages/language.js';

/**
 * The columns of a product spreadsheet (CSV or XLSX), one product a row. Their names are the
 * contract between export and import: an exported file reads back unchanged, and a user who adds
 * a column by hand (another language, another feature) writes it the same way.
 *
 *   id                          pim's database id (read-only: the import ignores it)
 *   supplierPid                 the key an import matches products by
 *   masterSupplierPid           a variant's main product (empty for a main product)
 *   groupId                     the product's group (database id, as REST's groupId); empty: none
 *   updatedAt                   read-only
 *   supplierIdRef, ean, …       the product's own fields (PRODUCT_FIELDS)
 *   short[deu], long[eng]       a text in a language (ISO 639-2)
 *   feature[FTIDREF][deu]       a feature's value in a language
 *   feature[FTIDREF].unit       a feature's unit
 *
 * An FTIDREF may hold any character but a line break, brackets included
 * (`feature[a]b][deu]` is feature `a]b`): the name is read from its ends.
 */
export type SpreadsheetField =
  'id' | 'supplierPid' | 'masterSupplierPid' | 'groupId' | 'updatedAt' | ProductFieldKey;

export type SpreadsheetColumn =
  | { kind: 'field'; field: SpreadsheetField }
  | { kind: 'text'; text: 'short' | 'long'; lang: string }
  | { kind: 'featureValue'; ftidref: string; lang: string }
  | { kind: 'featureUnit'; ftidref: string };

/** The fields in the order an export writes them. */
export const SPREADSHEET_FIELDS: readonly SpreadsheetField[] = [
  'id',
  'supplierPid',
  'masterSupplierPid',
  'groupId',
  ...PRODUCT_FIELDS.map((f) => f.key),
  'updatedAt',
];

/** Fields an import reads but never writes. */
export const READ_ONLY_FIELDS: ReadonlySet<SpreadsheetField> = new Set(['id', 'updatedAt']);

const FIELDS = new Set<string>(SPREADSHEET_FIELDS);

export function columnName(column: SpreadsheetColumn): string {
  switch (column.kind) {
    case 'field':
      return column.field;
    case 'text':
      return `${column.text}[${column.lang}]`;
    case 'featureValue':
      return `feature[${column.ftidref}][${column.lang}]`;
    case 'featureUnit':
      return `feature[${column.ftidref}].unit`;
  }
}

/** Why a header cell is not a column (for the import's error, with its place). */
export interface ColumnNameError {
  error: string;
}

function language(code: string, name: string): string | ColumnNameError {
  return lookupLanguage(code) ?? { error: `column '${name}': '${code}' is not an ISO 639-2 language code` };
}

/** The column a header cell names, or why it names none. Languages are normalised (ger → deu). */
export function parseColumnName(raw: string): SpreadsheetColumn | ColumnNameError {
  const name = raw.trim();
  if (FIELDS.has(name)) return { kind: 'field', field: name as SpreadsheetField };
  const text = /^(short|long)\[([^\]]*)\]$/.exec(name);
  if (text) {
    const lang = language(text[2]!, name);
    return typeof lang === 'string' ? { kind: 'text', text: text[1] as 'short' | 'long', lang } : lang;
  }
  const unit = /^feature\[(.+)\]\.unit$/s.exec(name);
  if (unit) return checkedFtidref(unit[1]!, name) ?? { kind: 'featureUnit', ftidref: unit[1]! };
  const value = /^feature\[(.+)\]\[([^\]]*)\]$/s.exec(name);
  if (value) {
    const bad = checkedFtidref(value[1]!, name);
    if (bad) return bad;
    const lang = language(value[2]!, name);
    return typeof lang === 'string' ? { kind: 'featureValue', ftidref: value[1]!, lang } : lang;
  }
  return {
    error:
      `unknown column '${name}': expected one of ${SPREADSHEET_FIELDS.join(', ')}, ` +
      'short[LANG], long[LANG], feature[FTIDREF][LANG] or feature[FTIDREF].unit',
  };
}

function checkedFtidref(ftidref: string, name: string): ColumnNameError | undefined {
  if (/[\r\n]/.test(ftidref)) return { error: `column '${name}': an FTIDREF cannot hold a line break` };
  return undefined;
}

export function isColumnError(parsed: SpreadsheetColumn | ColumnNameError): parsed is ColumnNameError {
  return 'error' in parsed;
}
