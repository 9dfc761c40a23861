import type {
  ProductColumnsPage,
  ProductColumnsProduct,
  ProductColumnsWant,
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
  /** What the page read needs: the kinds, languages and features of the columns. */
  want: ProductColumnsWant;
  fields: [index: number, cell: (product: ProductColumnsProduct) => string | null][];
  texts: { short: Map<string, number>; long: Map<string, number> };
  units: Map<string, number>;
  /** By ftidref, the value column of each language. */
  values: Map<string, Map<string, number>>;
}

export function rowLayout(columns: readonly SpreadsheetColumn[]): RowLayout {
  const layout: RowLayout = {
    width: columns.length,
    want: { textKinds: [], textLangs: [], ftidrefs: [] },
    fields: [],
    texts: { short: new Map(), long: new Map() },
    units: new Map(),
    values: new Map(),
  };
  const langs = new Set<string>();
  const ftidrefs = new Set<string>();
  columns.forEach((column, index) => {
    switch (column.kind) {
      case 'field':
        layout.fields.push([index, fieldCell(column.field)]);
        break;
      case 'text':
        layout.texts[column.text].set(column.lang, index);
        langs.add(column.lang);
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
  layout.want = {
    textKinds: (['short', 'long'] as const).filter((kind) => layout.texts[kind].size > 0),
    textLangs: [...langs],
    ftidrefs: [...ftidrefs],
  };
  return layout;
}

function fieldCell(field: Extract<SpreadsheetColumn, { kind: 'field' }>['field']) {
  switch (field) {
    case 'id':
      return (p: ProductColumnsProduct) => String(p.id);
    case 'supplierPid':
      return (p: ProductColumnsProduct) => p.supplierPid;
    case 'masterSupplierPid':
      return (p: ProductColumnsProduct) => p.masterSupplierPid;
    case 'groupId':
      return (p: ProductColumnsProduct) => (p.groupId === null ? null : String(p.groupId));
    case 'updatedAt':
      return (p: ProductColumnsProduct) => p.updatedAt;
    default:
      return (p: ProductColumnsProduct) => p.fields[field];
  }
}

/** The page's rows in its products' order. */
export function pageCells(
  page: ProductColumnsPage,
  layout: RowLayout,
  report: { valuesLeftOut: number },
): (string | null)[][] {
  const rows: (string | null)[][] = [];
  const rowOf = new Map<number, (string | null)[]>();
  for (const product of page.products) {
    const cells = new Array<string | null>(layout.width).fill(null);
    for (const [index, cell] of layout.fields) cells[index] = cell(product);
    rows.push(cells);
    rowOf.set(product.id, cells);
  }
  for (const text of page.texts) {
    const index = layout.texts[text.kind].get(text.lang);
    const cells = rowOf.get(text.productId);
    if (index !== undefined && cells) cells[index] = text.value;
  }
  for (const feature of page.features) {
    const cells = rowOf.get(feature.productId);
    if (!cells) continue;
    const unit = layout.units.get(feature.ftidref);
    if (unit !== undefined) cells[unit] = feature.unit;
    const byLang = layout.values.get(feature.ftidref);
    if (byLang === undefined) continue;
    const seen = new Set<string>();
    for (const { lang, value } of feature.values) {
      if (seen.has(lang)) {
        report.valuesLeftOut++;
        continue;
      }
      seen.add(lang);
      const index = byLang.get(lang);
      if (index !== undefined) cells[index] = value;
    }
  }
  return rows;
}
