import type { GridColumnId } from '../../../window/grid-columns.constants.js';

/**
 * The spreadsheet columns (docs/spreadsheets.md) of the grid's visible columns, in their order:
 * Name is the short text, one column per chosen language the texts use; Variants, a count, is the
 * relation it counts (a variant's main product); Group the product's group by id. supplierPid
 * comes first when the grid hides it: an import matches rows by it, so the file always reads back.
 */
export function viewColumns(
  visible: readonly GridColumnId[],
  languages: readonly string[],
  textLanguages: readonly string[],
): string[] {
  const columns = visible.flatMap((id): string[] => {
    switch (id) {
      case 'name':
        return languages.filter((lang) => textLanguages.includes(lang)).map((lang) => `short[${lang}]`);
      case 'variantCount':
        return ['masterSupplierPid'];
      case 'group':
        return ['groupId'];
      default:
        return [id];
    }
  });
  return columns.includes('supplierPid') ? columns : ['supplierPid', ...columns];
}
