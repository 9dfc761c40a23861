import type { ProductSheet } from '../../domain/products/product-sheet.service.js';
import type { SpreadsheetColumn } from './spreadsheet-columns.js';

/**
 * A product sheet as the cells of its row. A feature's cells come from its first occurrence (the
 * one REST's single feature routes address), one value per language: the first of a language;
 * the others are counted in `leftOut`. Empty cell (null): no value.
 */
export function sheetCells(
  sheet: ProductSheet,
  columns: readonly SpreadsheetColumn[],
  supplierPids: ReadonlyMap<number, string>,
  report: { valuesLeftOut: number },
): (string | null)[] {
  const product = sheet.product as unknown as Record<string, unknown>;
  const own = sheet as unknown as Record<string, unknown>;
  const features = new Map<string, ProductSheet['features'][number]>();
  for (const occurrence of sheet.features)
    if (!features.has(occurrence.ftidref)) features.set(occurrence.ftidref, occurrence);
  const exported = new Set<string>();
  const cells = columns.map((column): string | null => {
    switch (column.kind) {
      case 'field':
        switch (column.field) {
          case 'id':
            return String(sheet.product.id);
          case 'masterSupplierPid':
            return sheet.product.masterProductId === null
              ? null
              : (supplierPids.get(sheet.product.masterProductId) ?? null);
          case 'groupId':
            return sheet.group === null ? null : String(sheet.group.id);
          default: {
            const value = product[column.field] ?? own[column.field];
            return typeof value === 'string' ? value : null;
          }
        }
      case 'text': {
        const texts = column.text === 'short' ? sheet.shortTexts : sheet.longTexts;
        return texts.find((t) => t.lang === column.lang)?.value ?? null;
      }
      case 'featureUnit':
        return features.get(column.ftidref)?.funit ?? null;
      case 'featureValue': {
        exported.add(column.ftidref);
        return features.get(column.ftidref)?.values.find((v) => v.lang === column.lang)?.value ?? null;
      }
    }
  });
  for (const ftidref of exported) {
    const values = features.get(ftidref)?.values ?? [];
    const langs = new Set(values.map((v) => v.lang));
    report.valuesLeftOut += values.length - langs.size;
  }
  return cells;
}
