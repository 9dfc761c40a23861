/** What a statement trigger's function sees of the rows its statement wrote, by event. */
const TRANSITION_TABLES = {
  INSERT: 'NEW TABLE AS added',
  UPDATE: 'OLD TABLE AS before NEW TABLE AS changed',
  DELETE: 'OLD TABLE AS before',
} as const;

/**
 * A PostgreSQL statement trigger and its function of the same name: `body` (SQL statements, `;`
 * between them) runs once per statement that wrote `table`, with the statement's rows as the
 * transition tables `added` (INSERT), `before` and `changed` (UPDATE) or `before` (DELETE). Once per
 * statement rather than per row: a bulk write refreshes what it derives in one set-based statement.
 */
export function statementTrigger(
  name: string,
  event: keyof typeof TRANSITION_TABLES,
  table: string,
  body: string,
): string[] {
  return [
    `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${body};
        RETURN NULL;
      END $$`,
    `CREATE TRIGGER ${name} AFTER ${event} ON ${table} REFERENCING ${TRANSITION_TABLES[event]}
      FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
  ];
}
