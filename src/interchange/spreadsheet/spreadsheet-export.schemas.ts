import { Type, type Static } from '@sinclair/typebox';
import { ProductSelection } from '../../domain/products/product-selection.schemas.js';
import { ValidationError, atField } from '../../domain/errors.js';
import { splitColumnList } from './spreadsheet-export-columns.js';
import type { SpreadsheetExportOptions, SpreadsheetFormat } from './spreadsheet-export.js';

/**
 * A spreadsheet export's options as a query string (GET /api/export?format=csv|xlsx) and as
 * `pim export` takes them: the selection's filters by their ProductSelection names, `ids` as a
 * comma list, `columns`, `languages` and `bom`. One schema for validation, types and OpenAPI.
 */
const S = ProductSelection.properties;

export const spreadsheetSelectionFields = {
  ids: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9})*$',
      maxLength: 8_000,
      description:
        'csv/xlsx: the products picked one by one, a comma list of ids (not with the filters); for more ' +
        'than a URL holds, select by the filters',
    }),
  ),
  q: Type.Optional({ ...S.q, description: 'csv/xlsx: search in supplierPid and short texts' }),
  includeSubgroups: Type.Optional({
    ...S.includeSubgroups,
    description: 'csv/xlsx with groupId: the products of its subgroups too (default false)',
  }),
  mainOnly: Type.Optional({ ...S.mainOnly, description: 'csv/xlsx: main products only' }),
  updatedSince: Type.Optional({
    ...S.updatedSince,
    description: 'csv/xlsx: changed at or after this instant (ISO 8601)',
  }),
  textLang: Type.Optional({ ...S.textLang, description: 'csv/xlsx: the language `text` looks at' }),
  text: Type.Optional({
    ...S.text,
    description: 'csv/xlsx: products that have (has) or lack (lacks) a short text in textLang',
  }),
  ftidref: Type.Optional({ ...S.ftidref, description: 'csv/xlsx: the feature `feature` looks at' }),
  feature: Type.Optional({
    ...S.feature,
    description: 'csv/xlsx: products that have (has) or lack (lacks) the feature ftidref',
  }),
  includeVariants: Type.Optional({
    ...S.includeVariants,
    description: 'csv/xlsx: also the variants of every selected main product (default false)',
  }),
};

export const spreadsheetOnlyFields = {
  ...spreadsheetSelectionFields,
  columns: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 8_000,
      description:
        'csv/xlsx: the columns in order, comma-separated (id, supplierPid, short[deu], feature[FTIDREF][eng], ' +
        'feature[FTIDREF].unit, ...; docs/spreadsheets.md); absent: every field, text and feature in use',
    }),
  ),
  bom: Type.Optional(Type.Boolean({ description: 'csv: begin with a UTF-8 byte-order mark (for Excel)' })),
};

export type SpreadsheetQueryInput = Static<ReturnType<typeof Type.Object<typeof spreadsheetOnlyFields>>> & {
  groupId?: number;
  languages?: string;
};

/** The options as openSpreadsheetExport takes them; `bom` only for CSV (400 naming it otherwise). */
export function spreadsheetOptionsOf(
  format: SpreadsheetFormat,
  input: SpreadsheetQueryInput,
): Omit<SpreadsheetExportOptions, 'onProgress'> {
  if (format !== 'csv' && input.bom !== undefined)
    throw atField(new ValidationError(`bom applies to format csv only, not ${format}`), 'bom');
  const { ids, columns, bom, languages, ...filters } = input;
  const select = {
    ...filters,
    ...(ids !== undefined ? { ids: ids.split(',').map(Number) } : {}),
  };
  return {
    format,
    select,
    ...(columns !== undefined ? { columns: splitColumnList(columns) } : {}),
    ...(languages !== undefined ? { languages: languages.split(',') } : {}),
    ...(bom !== undefined ? { bom } : {}),
  };
}
