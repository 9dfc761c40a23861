import type { ProductFieldKey } from '../../db/catalogue/product-fields.js';
import { TEXT_KIND } from '../../domain/products/product-columns.service.js';
import type { ProductStateWant } from '../../domain/products/product-state.service.js';
import { checkFtidref } from '../../domain/features/feature.rules.js';
import { DomainError } from '../../domain/errors.js';
import { columnName, isColumnError, parseColumnName, READ_ONLY_FIELDS } from './spreadsheet-columns.js';
import { columnLetters, place, SpreadsheetError } from './spreadsheet-error.js';
import type { SheetRow } from './sheet-row.js';
import { restored } from './spreadsheet-cells.js';
import type { SpreadsheetFormat } from './spreadsheet-export.js';

/** A feature's columns: its values by language and its unit, each by cell index. */
export interface FeatureColumns {
  ftidref: string;
  values: { index: number; lang: string }[];
  /** Positions in `values` by language in the stored lists' order (entry-list.rules.ts). */
  byLang: number[];
  unit?: number;
}

/**
 * What the header row says each column holds, by cell index (0 is column A). A column the file
 * lacks is undefined or absent: the import leaves that part of every product as it is.
 */
export interface HeaderPlan {
  names: string[];
  supplierPid: number;
  masterSupplierPid?: number;
  groupId?: number;
  fields: { index: number; key: ProductFieldKey }[];
  texts: { index: number; kind: 'short' | 'long'; lang: string }[];
  features: FeatureColumns[];
  /** What of a stored product the columns compare: their texts, their features. */
  compared: ProductStateWant;
  /**
   * A cell's value from its text: a CSV cell loses the `'` the export's formula guard put before it
   * (`restored`); an XLSX cell is taken as it is (the export adds no `'` there: docs/spreadsheets.md).
   */
  valueOf: (cell: string) => string;
}

/** Reads the header row; a column that names nothing, or names a column twice, fails the import. */
export function readHeader(header: SheetRow, format: SpreadsheetFormat): HeaderPlan {
  const names = header.cells.map((c) => c.trim());
  const fail = (index: number, message: string): never => {
    throw new SpreadsheetError(`${place(1, index + 1, names[index])}: ${message}`, 1, index + 1);
  };
  if (header.problem) fail(header.problem.column - 1, 'the header row is not UTF-8');
  const plan: HeaderPlan = {
    names,
    supplierPid: -1,
    fields: [],
    texts: [],
    features: [],
    compared: { texts: [], ftidrefs: [] },
    valueOf: format === 'csv' ? restored : (cell) => cell,
  };
  const seen = new Map<string, number>();
  const features = new Map<string, FeatureColumns>();
  names.forEach((name, index) => {
    if (name === '') fail(index, 'a column without a name in the header row');
    const column = parseColumnName(name);
    if (isColumnError(column)) return fail(index, column.error);
    const canonical = columnName(column);
    const earlier = seen.get(canonical);
    if (earlier !== undefined)
      fail(index, `a second column ${canonical} (the first is column ${columnLetters(earlier + 1)})`);
    seen.set(canonical, index);
    switch (column.kind) {
      case 'field':
        if (column.field === 'supplierPid') plan.supplierPid = index;
        else if (column.field === 'masterSupplierPid') plan.masterSupplierPid = index;
        else if (column.field === 'groupId') plan.groupId = index;
        else if (!READ_ONLY_FIELDS.has(column.field))
          plan.fields.push({ index, key: column.field as ProductFieldKey });
        break;
      case 'text':
        plan.texts.push({ index, kind: column.text, lang: column.lang });
        break;
      case 'featureValue':
      case 'featureUnit': {
        try {
          checkFtidref(column.ftidref);
        } catch (error) {
          if (error instanceof DomainError) fail(index, error.message);
          throw error;
        }
        let feature = features.get(column.ftidref);
        if (!feature)
          features.set(column.ftidref, (feature = { ftidref: column.ftidref, values: [], byLang: [] }));
        if (column.kind === 'featureUnit') feature.unit = index;
        else feature.values.push({ index, lang: column.lang });
        break;
      }
    }
  });
  if (plan.supplierPid < 0)
    throw new SpreadsheetError(
      'row 1: the header row has no column supplierPid: it is the key each row is matched by',
      1,
      1,
    );
  plan.features = [...features.values()];
  for (const feature of plan.features) {
    const langs = feature.values.map((v) => v.lang);
    feature.byLang = langs.map((_, i) => i).sort((a, b) => (langs[a]! < langs[b]! ? -1 : 1));
  }
  plan.compared = {
    texts: plan.texts.map((t) => ({ kind: TEXT_KIND[t.kind], lang: t.lang })),
    ftidrefs: plan.features.map((f) => f.ftidref),
  };
  return plan;
}
