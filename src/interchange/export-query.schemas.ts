import { Type, type Static } from '@sinclair/typebox';
import { ValidationError, atField } from '../domain/errors.js';
import { exportOptionFields, exportOptionsOf } from './bmecat/export-options.schemas.js';
import { spreadsheetOnlyFields, spreadsheetOptionsOf } from './spreadsheet/spreadsheet-export.schemas.js';

/**
 * GET /api/export's query: one schema for every format. BMEcat (the default, `format` 2005 or
 * 2005.1) takes languages, groupId (with its subgroups) and strict; csv and xlsx take languages,
 * groupId (a selection filter: its subgroups only with includeSubgroups), the other filters of the
 * product grid, ids, columns and bom (csv). A parameter the chosen format does not take is refused
 * (400 naming it) rather than ignored.
 */
export const ExportQuery = Type.Object(
  {
    ...exportOptionFields,
    format: Type.Optional(
      Type.Union([Type.Literal('2005'), Type.Literal('2005.1'), Type.Literal('csv'), Type.Literal('xlsx')], {
        description:
          'BMEcat 2005 (default: the namespace most receivers expect), BMEcat 2005.1 (validates against its ' +
          'schema), csv (RFC 4180, UTF-8) or xlsx (one sheet "products"): docs/bmecat.md, docs/spreadsheets.md',
      }),
    ),
    groupId: Type.Optional({
      ...exportOptionFields.groupId,
      description:
        'BMEcat: only this group (database key), its subgroups and their products; csv/xlsx: products of this ' +
        'group (with includeSubgroups: of its subgroups too)',
    }),
    strict: Type.Optional({
      ...exportOptionFields.strict,
      description: `BMEcat: ${exportOptionFields.strict.description}`,
    }),
    ...spreadsheetOnlyFields,
  },
  { additionalProperties: false },
);
export type ExportQueryInput = Static<typeof ExportQuery>;

const SPREADSHEET_ONLY = Object.keys(spreadsheetOnlyFields) as (keyof typeof spreadsheetOnlyFields)[];

export type ExportRequest =
  | { kind: 'bmecat'; options: ReturnType<typeof exportOptionsOf> }
  | { kind: 'spreadsheet'; options: ReturnType<typeof spreadsheetOptionsOf> };

/** Which export the query asks for, with its options; 400 for a parameter its format does not take. */
export function exportRequestOf(query: ExportQueryInput): ExportRequest {
  const { format } = query;
  if (format === 'csv' || format === 'xlsx') {
    if (query.strict !== undefined)
      throw atField(
        new ValidationError(`strict applies to the BMEcat formats only, not ${format}`),
        'strict',
      );
    const { format: _f, strict: _s, ...rest } = query;
    return { kind: 'spreadsheet', options: spreadsheetOptionsOf(format, rest) };
  }
  const wrong = SPREADSHEET_ONLY.find((key) => query[key] !== undefined);
  if (wrong !== undefined)
    throw atField(
      new ValidationError(
        `${wrong} applies to format csv or xlsx only, not BMEcat (format=${format ?? '2005'})`,
      ),
      wrong,
    );
  return {
    kind: 'bmecat',
    options: exportOptionsOf({
      ...(format !== undefined ? { format } : {}),
      ...(query.languages !== undefined ? { languages: query.languages } : {}),
      ...(query.groupId !== undefined ? { groupId: query.groupId } : {}),
      ...(query.strict !== undefined ? { strict: query.strict } : {}),
    }),
  };
}
