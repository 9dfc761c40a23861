import { sql } from 'kysely';
import type { ProductListSql } from './catalogue-sql.js';
import { productSqlSqlite } from './product-sql.sqlite.js';

/**
 * SQLite's list: a chunk is one BLOB (never decoded into a JavaScript string); one over SQLite's
 * limit (about 1 GB) is refused (SQLITE_TOOBIG) before anything reaches JavaScript, and the caller
 * reads it again in halves. A page is the chunk and one index probe after its last id, both in
 * process.
 */
export const productListSqlite: ProductListSql = {
  async chunk(db, rows, limit) {
    const chunk = await db
      .selectFrom(rows.as('c'))
      .select([
        productSqlSqlite.joinedJson().as('json'),
        sql<number | null>`max(c.id)`.as('lastId'),
        sql<number>`count(*)`.as('count'),
      ])
      .executeTakeFirstOrThrow();
    return { ...chunk, ended: limit === undefined || chunk.count < limit };
  },
  async page(db, select, limit, budget, after) {
    const page = await this.chunk(db, select(limit), limit, budget);
    if (page.ended || page.lastId === null) return { json: page.json, lastId: page.lastId, more: false };
    return { json: page.json, lastId: page.lastId, more: await after(page.lastId) };
  },
};
