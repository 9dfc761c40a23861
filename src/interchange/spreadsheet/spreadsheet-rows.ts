import { entryPairs } from '../../domain/features/entry-list.rules.js';
import {
  PRODUCT_COLUMN,
  TEXT_COLUMNS,
  type ProductColumnsPage,
  type ProductColumnsWant,
} from '../../domain/products/product-columns.service.js';
import type { SpreadsheetColumn } from './spreadsheet-columns.js';

/**
 * Where each part of a product goes in its row, worked out once for the export's columns: the
 * page's flat lists (product-columns.service.ts) are then put into their cells directly, without a
 * lookup per column and product. A feature's cells come from its first occurrence (the one REST's
 * single feature routes address), one value per language: the first of a language; the others are
 * counted in `valuesLeftOut`. Empty cell (null): no value.
 */
export interface RowLayout {
  width: number;
  /** What the page read needs: the texts and features of the columns. */
  want: ProductColumnsWant;
  /**
   * Column index, position in the product row, and whether the value is a number to write as text:
   * the fields, and the texts (columns of the product row as `want.texts` orders them).
   */
  fields: [index: number, at: number, numeric: boolean][];
  units: Map<string, number>;
  /** By ftidref, the value column of each language. */
  values: Map<string, Map<string, number>>;
}

/** The product row's leading columns (product-columns-sql.ts); the fields follow them. */
const ID = 0;
const SUPPLIER_PID = 1;
const MASTER_PID = 2;
const GROUP_ID = 3;
const UPDATED_AT = 4;

export function rowLayout(columns: readonly SpreadsheetColumn[]): RowLayout {
  const layout: RowLayout = {
    width: columns.length,
    want: { texts: [], ftidrefs: [] },
    fields: [],
    units: new Map(),
    values: new Map(),
  };
  const texts: { kind: 'short' | 'long'; lang: string }[] = [];
  const ftidrefs = new Set<string>();
  columns.forEach((column, index) => {
    switch (column.kind) {
      case 'field':
        layout.fields.push(fieldCell(index, column.field));
        break;
      case 'text':
        layout.fields.push([index, TEXT_COLUMNS + texts.length, false]);
        texts.push({ kind: column.text, lang: column.lang });
        break;
      case 'featureUnit':
        layout.units.set(column.ftidref, index);
        ftidrefs.add(column.ftidref);
        break;
      case 'featureValue': {
        const byLang = layout.values.get(column.ftidref) ?? new Map<string, number>();
        byLang.set(column.lang, index);
        layout.values.set(column.ftidref, byLang);
        ftidrefs.add(column.ftidref);
        break;
      }
    }
  });
  layout.want = { texts, ftidrefs: [...ftidrefs] };
  return layout;
}

function fieldCell(
  index: number,
  field: Extract<SpreadsheetColumn, { kind: 'field' }>['field'],
): RowLayout['fields'][number] {
  switch (field) {
    case 'id':
      return [index, ID, true];
    case 'supplierPid':
      return [index, SUPPLIER_PID, false];
    case 'masterSupplierPid':
      return [index, MASTER_PID, false];
    case 'groupId':
      return [index, GROUP_ID, true];
    case 'updatedAt':
      return [index, UPDATED_AT, false];
    default:
      return [index, PRODUCT_COLUMN[field], false];
  }
}

/**
 * The page's rows in its products' order, each as the cells of one array that is refilled for the
 * next product: a consumer writes a row before it asks for the next and keeps none (a new array of
 * 1,230 cells per product was most of the export's garbage). The texts are the product row's own
 * columns; the features come ordered by product and are walked beside the products.
 */
export function* pageRows(
  page: ProductColumnsPage,
  layout: RowLayout,
  report: { valuesLeftOut: number },
): Generator<readonly (string | null)[]> {
  const cells = new Array<string | null>(layout.width).fill(null);
  const { products, features } = page;
  const seen: string[] = [];
  const pairs: string[] = [];
  let f = 0;
  for (const product of products) {
    cells.fill(null);
    const id = Number(product[ID]);
    for (const [index, at, numeric] of layout.fields) {
      const value = product[at];
      cells[index] =
        value === null || value === undefined ? null : numeric ? String(value) : (value as string);
    }
    // Parts of ids before this one would be of products that do not exist: one snapshot has none.
    while (f < features.length && Number(features[f]![0]) < id) f++;
    for (; f < features.length && Number(features[f]![0]) === id; f++) {
      const [, ftidref, unit, valuesJson] = features[f]!;
      const unitAt = layout.units.get(ftidref);
      if (unitAt !== undefined) cells[unitAt] = unit;
      const byLang = layout.values.get(ftidref);
      if (byLang === undefined) continue;
      seen.length = 0;
      entryPairs(valuesJson, pairs);
      for (let e = 0; e < pairs.length; e += 2) {
        const lang = pairs[e]!;
        if (seen.includes(lang)) {
          report.valuesLeftOut++;
          continue;
        }
        seen.push(lang);
        const index = byLang.get(lang);
        if (index !== undefined) cells[index] = pairs[e + 1]!;
      }
    }
    yield cells;
  }
}
