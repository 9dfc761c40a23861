import { sql, type RawBuilder } from 'kysely';
import type { LockedProductRow, ProductLockPurpose } from './catalogue-sql.js';
import { sqliteIdList } from './id-list.js';

/**
 * Row locks on products, taken by a write transaction before it reads what it is about to write
 * (PostgreSQL, where transactions run side by side; SQLite runs one writer at a time, so there the
 * same statement is a plain read).
 *
 * - What was read stays true until the commit: a product found cannot be deleted, nor moved to
 *   another group, by another transaction in between. A lock that had to wait for a delete finds
 *   no row once the delete committed (READ COMMITTED), so the caller answers 404 as if the delete
 *   had come first, instead of failing on a foreign key or a duplicate deletion record.
 * - One order for everybody: ascending id, in one statement (ORDER BY is applied before the rows
 *   are locked). A variant is created after its main product, so its id is higher: "main product
 *   before its variants" is the same order, the one a delete's cascade and the touching of a
 *   variant's main product need. Transactions that lock in one order cannot deadlock on these rows
 *   (two bulk deletes of the same products in opposite orders did, and retrying did not help).
 */

/**
 * PostgreSQL: the related ids are collected by uncorrelated subqueries (ARRAY(...), each run once),
 * and the rows locked by `id = ANY(...)` on the primary key, which returns them in id order. Not a
 * join with a subquery (`id IN (SELECT ...)`): when a row had to be waited for because another
 * transaction updated it, PostgreSQL re-checks the condition on the new row version, and with the
 * semi-join planned over a HashAggregate that re-check lost the row, so a product that existed was
 * not found (seen on PostgreSQL 15 once the table had a few thousand rows).
 */
export function lockProductsPostgres(ids: readonly number[], purpose: ProductLockPurpose, variants: boolean) {
  return lockPostgres(sql`CAST(${[...ids]} AS integer[])`, purpose, variants);
}

/** lockProductsPostgres of one product, its id a plain parameter (so that it can be compiled once). */
export function lockProductPostgres(id: unknown) {
  return lockPostgres(sql`ARRAY[CAST(${id} AS integer)]`, 'change', false);
}

function lockPostgres(named: RawBuilder<unknown>, purpose: ProductLockPurpose, variants: boolean) {
  const ofMains = variants
    ? sql`|| ARRAY(SELECT v.id FROM product v WHERE v.master_id = ANY(${named}))`
    : sql``;
  // FOR NO KEY UPDATE is what an UPDATE of non-key columns takes: it still lets other
  // transactions insert texts or variants referencing the row, which FOR UPDATE would block.
  const lock = purpose === 'delete' ? sql`FOR UPDATE` : sql`FOR NO KEY UPDATE`;
  return sql<LockedProductRow>`
    SELECT id, supplier_pid, master_id, group_id FROM product
    WHERE id = ANY(${named}
      || ARRAY(SELECT v.master_id FROM product v WHERE v.id = ANY(${named}) AND v.master_id IS NOT NULL)
      ${ofMains})
    ORDER BY id ${lock}`;
}

/**
 * lockProductsSqlite of one product for a change: the product and its main product, by two seeks of
 * the primary key where the list's json_each and its two subqueries cost about 70 µs a write.
 */
export function lockProductSqlite(id: unknown) {
  return sql<LockedProductRow>`
    SELECT id, supplier_pid, master_id, group_id FROM product
    WHERE id = ${id} OR id = (SELECT v.master_id FROM product v WHERE v.id = ${id})
    ORDER BY id`;
}

/** SQLite: the same rows, read; the write transaction already excludes every other writer. */
export function lockProductsSqlite(ids: readonly number[], _purpose: ProductLockPurpose, variants: boolean) {
  const list = sqliteIdList(ids);
  const ofMains = variants ? sql`UNION ALL SELECT v.id FROM product v WHERE v.master_id IN ${list}` : sql``;
  return sql<LockedProductRow>`
    SELECT id, supplier_pid, master_id, group_id FROM product
    WHERE id IN (
      SELECT v.id FROM product v WHERE v.id IN ${list}
      UNION ALL SELECT v.master_id FROM product v WHERE v.id IN ${list}
      ${ofMains})
    ORDER BY id`;
}
