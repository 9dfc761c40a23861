import { sql } from 'kysely';
import type { BulkSql } from './catalogue-sql.js';

/**
 * SQLite: json_each walks the bound JSON array; `->> n` takes the n-th value of a row as the SQL
 * value of its JSON type (text, integer or NULL). One writer at a time: no row locks.
 */
export const bulkSqlSqlite: BulkSql = {
  rows(columns, data) {
    const select = columns.map(([name], i) => `r.value ->> ${i} AS "${name}"`).join(', ');
    return sql`(SELECT ${sql.raw(select)} FROM json_each(${JSON.stringify(data)}) AS r) AS j`;
  },
  textList(values) {
    return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
  },
};
