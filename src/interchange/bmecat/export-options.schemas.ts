import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../../domain/common.schemas.js';

/**
 * The options of a BMEcat export as every entry point takes them (REST's query string, MCP's
 * export_bmecat; `pim export` parses the same names): one schema for validation, types and docs.
 */
export const exportOptionFields = {
  format: Type.Optional(
    Type.Union([Type.Literal('2005'), Type.Literal('2005.1')], {
      description:
        '2005 (default: the namespace most receivers expect) or 2005.1 (validates against the BMEcat 2005.1 schema)',
    }),
  ),
  languages: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 400,
      pattern: '^[A-Za-z]{2,3}(,[A-Za-z]{2,3})*$',
      description:
        'Texts, names and values of these languages only, comma-separated ISO 639 codes (deu,eng); all when absent',
    }),
  ),
  groupId: Type.Optional({
    ...Id,
    description: 'Only this group (database key), its subgroups and their products',
  }),
  strict: Type.Optional(
    Type.Boolean({
      description:
        'Fail at the first value BMEcat cannot take as it is (over a length limit, ...) instead of reporting it',
    }),
  ),
};

export const ExportOptionsQuery = Type.Object(exportOptionFields, { additionalProperties: false });
export type ExportOptionsInput = Static<typeof ExportOptionsQuery>;

/** The options as the exporter takes them. */
export function exportOptionsOf(input: ExportOptionsInput) {
  return {
    format: input.format ?? '2005',
    ...(input.languages !== undefined ? { languages: input.languages.split(',') } : {}),
    ...(input.groupId !== undefined ? { groupId: input.groupId } : {}),
    strict: input.strict === true,
  } as const;
}
