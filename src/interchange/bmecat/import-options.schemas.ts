import { Type } from '@sinclair/typebox';

/**
 * The options of a BMEcat import as every entry point takes them (REST's query string, MCP's
 * import_bmecat): one schema for validation, types and both descriptions.
 */
export const importOptionFields = {
  mode: Type.Optional(
    Type.Union([Type.Literal('merge'), Type.Literal('replace')], {
      description:
        'merge (default): the file\u2019s products are created or updated, the others stay; replace (T_NEW_CATALOG ' +
        'only): afterwards the workspace holds exactly the file\u2019s catalogue (other products and groups are deleted)',
    }),
  ),
  dryRun: Type.Optional(Type.Boolean({ description: 'Say what would change; write nothing' })),
  continueOnError: Type.Optional(
    Type.Boolean({ description: 'Skip a product that is refused, list it in the report, import the others' }),
  ),
};
