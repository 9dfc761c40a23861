import { sql } from 'kysely';
import type { ProductJsonRows, ProductListSql } from './catalogue-sql.js';
import { productSqlPostgres } from './product-sql.postgres.js';

/**
 * PostgreSQL: of the rows (id, dto) in id order, those whose JSON begins within `budget` bytes (the
 * first always); with `counted`, each with the number of rows there were in all (`total`), so that
 * a page can tell a cut from its end. A window over rows already built: no second read of the
 * names. The chunk's JSON reaches JavaScript as one string (the bytea's hex), which Node cannot
 * hold beyond 512 MB, and node-postgres builds it inside a socket handler, where that error would
 * end the process; a name may hold 1,000,000 characters.
 */
function withinBudget(rows: ProductJsonRows, budget: number, counted = false) {
  const total = counted ? sql`count(*) OVER ()` : sql`0`;
  return sql<{ id: number; dto: string; total: number }>`(SELECT w.id, w.dto, w.total FROM (
      SELECT r.id, r.dto, ${total} AS total,
        sum(octet_length(r.dto)) OVER (ORDER BY r.id) - octet_length(r.dto) AS before
      FROM (${rows}) r) w
    WHERE w.before < ${budget})`;
}

export const productListPostgres: ProductListSql = {
  async chunk(db, rows, _limit, budget) {
    const chunk = await db
      .selectFrom(withinBudget(rows, budget).as('c'))
      .select([
        productSqlPostgres.joinedJson().as('json'),
        sql<number | null>`max(c.id)`.as('lastId'),
        sql<number>`count(*)`.as('count'),
      ])
      .executeTakeFirstOrThrow();
    return { ...chunk, count: Number(chunk.count), ended: Number(chunk.count) === 0 };
  },
  /** One query for limit + 1 rows: a probe after the page would be a second round trip (375 -> 455 µs per page). */
  async page(db, select, limit, budget) {
    const selected = select(limit + 1);
    let rows: { id: number; dto: string }[];
    // Pages of up to 100 (delta syncs take 100) are read whole: at most about 600 MB of rows even
    // with names of 1,000,000 characters, each its own string. Larger ones are cut at the budget.
    if (limit <= 100) rows = await selected.execute();
    else {
      const cut = await db
        .selectFrom(withinBudget(selected, budget, true).as('c'))
        .select(['c.id', 'c.dto', 'c.total'])
        .orderBy('c.id')
        .execute();
      // Cut before its end: more than `budget` bytes (the first row always comes).
      if (cut.length < Math.min(Number(cut[0]?.total ?? 0), limit + 1)) {
        return { json: null, lastId: null, more: false, tooLarge: true };
      }
      rows = cut;
    }
    const items = rows.slice(0, limit);
    return {
      json: items.length === 0 ? null : Buffer.from(items.map((row) => row.dto).join(',')),
      lastId: items.at(-1)?.id ?? null,
      more: rows.length > limit,
    };
  },
};
