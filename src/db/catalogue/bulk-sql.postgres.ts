import { sql } from 'kysely';
import type { BulkSql } from './catalogue-sql.js';

/**
 * PostgreSQL: jsonb_array_elements walks the bound JSON array; `->> n` gives the n-th value as
 * text (NULL for JSON null), cast to the column's type.
 */
export const bulkSqlPostgres: BulkSql = {
  rows(columns, data) {
    const select = columns
      .map(([name, type], i) =>
        type === 'text' ? `r.v ->> ${i} AS "${name}"` : `CAST(r.v ->> ${i} AS ${type}) AS "${name}"`,
      )
      .join(', ');
    return sql`(SELECT ${sql.raw(select)}
      FROM jsonb_array_elements(CAST(${JSON.stringify(data)} AS jsonb)) AS r(v)) AS j`;
  },
  textList(values) {
    return sql`(SELECT unnest(CAST(${[...values]} AS text[])))`;
  },
  async drawProductIds(db, count) {
    const result = await sql<{ id: number }>`
      SELECT CAST(nextval(pg_get_serial_sequence('product', 'id')) AS integer) AS id
      FROM generate_series(1, ${count}) ORDER BY 1`.execute(db);
    return result.rows.map((row) => row.id);
  },
};
