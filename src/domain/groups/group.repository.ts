import { sql, type Kysely } from 'kysely';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import { catalogueSql } from '../../db/catalogue/catalogue-sql.js';
import { groupNameSql } from '../../db/catalogue/shared-sql.js';
import { dropFirstFromOthers } from '../products/product-parts.repository.js';

/** A workspace database or a transaction on it. */
type Db = Kysely<WorkspaceDatabase>;

/** Languages in which a group's name is looked for, best first; then the first name by language code. */
export interface NameLanguages {
  preferred: string;
  fallback: string;
}

export interface GroupRow {
  id: number;
  parent_id: number | null;
  bmecat_id: string;
  name: string;
  product_count: number;
  child_count: number;
  created_at: string;
  updated_at: string;
}

export type TreeRow = Omit<GroupRow, 'child_count' | 'created_at' | 'updated_at'>;

export interface GroupKeyRow {
  id: number;
  parent_id: number | null;
  bmecat_id: string;
}

export interface ProductMembershipRow {
  id: number;
  master_id: number | null;
  group_id: number | null;
}

const ROOT_SEQ_KEY = 'next_root_group_seq';

/**
 * Groups with their name and counts, in one statement (correlated subqueries over the
 * primary key and the product_group_member / product_group_parent indexes). All groups, or one.
 */
export async function selectGroupRows(db: Db, languages: NameLanguages, id?: number): Promise<GroupRow[]> {
  const where = id === undefined ? sql`` : sql`WHERE g.id = ${id}`;
  const result = await sql<GroupRow>`
    SELECT g.id, g.parent_id, g.bmecat_id, ${groupNameSql(languages.preferred, languages.fallback)} AS name,
      (SELECT COUNT(*) FROM product p WHERE p.group_id = g.id) AS product_count,
      (SELECT COUNT(*) FROM product_group c WHERE c.parent_id = g.id) AS child_count,
      g.created_at, g.updated_at
    FROM product_group g ${where}
    ORDER BY g.id`.execute(db);
  return result.rows;
}

/** Every group with name and product count, for assembling the tree in memory: one statement. */
export async function selectTreeRows(db: Db, languages: NameLanguages): Promise<TreeRow[]> {
  const result = await sql<TreeRow>`
    SELECT g.id, g.parent_id, g.bmecat_id, ${groupNameSql(languages.preferred, languages.fallback)} AS name,
      (SELECT COUNT(*) FROM product p WHERE p.group_id = g.id) AS product_count
    FROM product_group g
    ORDER BY g.id`.execute(db);
  return result.rows;
}

export async function countUngroupedProducts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('product')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('group_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findGroupKey(db: Db, id: number): Promise<GroupKeyRow | undefined> {
  return db
    .selectFrom('product_group')
    .select(['id', 'parent_id', 'bmecat_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Takes the next root-level number (meta next_root_group_seq); numbers are never handed out twice. */
export async function takeRootSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', ROOT_SEQ_KEY).executeTakeFirst();
  let seq = row ? Number(row.value) : NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) {
    // A damaged or missing counter: continue after the highest root-level number in use.
    const max = await sql<{ n: number | null }>`
      SELECT MAX(CAST(bmecat_id AS INTEGER)) AS n FROM product_group WHERE parent_id IS NULL`.execute(db);
    seq = (max.rows[0]?.n ?? 0) + 1;
  }
  await db
    .insertInto('meta')
    .values({ key: ROOT_SEQ_KEY, value: String(seq + 1) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(seq + 1) }))
    .execute();
  return seq;
}

/** Takes the next child number of a group (its next_child_seq); numbers are never handed out twice. */
export async function takeChildSeq(db: Db, parentId: number): Promise<number> {
  const row = await db
    .updateTable('product_group')
    .set((eb) => ({ next_child_seq: eb('next_child_seq', '+', 1) }))
    .where('id', '=', parentId)
    .returning('next_child_seq')
    .executeTakeFirstOrThrow();
  return row.next_child_seq - 1;
}

export async function insertGroup(
  db: Db,
  row: { parent_id: number | null; bmecat_id: string; now: string },
): Promise<number> {
  const inserted = await db
    .insertInto('product_group')
    .values({
      parent_id: row.parent_id,
      bmecat_id: row.bmecat_id,
      next_child_seq: 1,
      created_at: row.now,
      updated_at: row.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function upsertGroupName(db: Db, groupId: number, lang: string, name: string): Promise<void> {
  await db
    .insertInto('product_group_name')
    .values({ group_id: groupId, lang, name })
    .onConflict((oc) => oc.columns(['group_id', 'lang']).doUpdateSet({ name }))
    .execute();
}

export async function setCatalogGroupId(db: Db, id: number, catalogGroupId: string | null): Promise<void> {
  await db
    .updateTable('product_group')
    .set({ catalog_group_id: catalogGroupId })
    .where('id', '=', id)
    .execute();
}

export async function setKeptContent(db: Db, id: number, kept: readonly string[]): Promise<void> {
  await db
    .updateTable('product_group')
    .set({ kept_xml: kept.length === 0 ? null : JSON.stringify(kept) })
    .where('id', '=', id)
    .execute();
}

/** The first group (by id) a catalogue gave this GROUP_ID. */
export async function findGroupIdByCatalogId(db: Db, catalogGroupId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('product_group')
    .select('id')
    .where('catalog_group_id', '=', catalogGroupId)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

export async function touchGroup(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('product_group').set({ updated_at: now }).where('id', '=', id).execute();
}

/**
 * Serialises changes to the shape of the tree (create, move, delete) for the rest of the
 * transaction: they read the tree, then write numbers and parent links that must agree with
 * what they read. On SQLite the transaction's write lock does it (one writer at a time); on
 * PostgreSQL, where transactions run side by side, a table lock that readers and the
 * foreign-key checks of product assignments pass (SHARE ROW EXCLUSIVE conflicts with writers).
 */
export async function lockTree(db: Db): Promise<void> {
  await catalogueSql(db).lockTree(db);
}

/**
 * Locks a group's row against deletion until the transaction ends (PostgreSQL; SQLite has one
 * writer at a time) and tells whether the group exists: products assigned to it must not point to
 * a group deleted meanwhile. A lock that waited for a delete finds no row once the delete
 * committed (READ COMMITTED), which the assignment ignored and then failed on the foreign key.
 */
export async function lockGroupRow(db: Db, id: number): Promise<boolean> {
  const result =
    await sql`SELECT id FROM product_group WHERE id = ${id} ${catalogueSql(db).keyShare}`.execute(db);
  return result.rows.length > 0;
}

/**
 * Locks the rows of groups about to be deleted, in id order, before their products are read
 * (PostgreSQL): an assignment to one of them has either committed (its products are read and
 * ungrouped or deleted with the others) or waits, and then finds the group gone (404).
 */
export async function lockGroupRows(db: Db, ids: readonly number[]): Promise<void> {
  await catalogueSql(db).lockGroupRows(db, ids);
}

/** True when `candidateId` is `groupId` or one of its descendants (walks up from the candidate). */
export async function isSelfOrDescendant(db: Db, candidateId: number, groupId: number): Promise<boolean> {
  const result = await sql<{ hit: number }>`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM product_group WHERE id = ${candidateId}
      UNION ALL
      SELECT g.id, g.parent_id FROM product_group g JOIN up ON g.id = up.parent_id
    )
    SELECT 1 AS hit FROM up WHERE id = ${groupId} LIMIT 1`.execute(db);
  return result.rows.length > 0;
}

function subtree(rootId: number) {
  return sql`(
    WITH RECURSIVE sub(id) AS (
      SELECT CAST(${rootId} AS integer)
      UNION ALL
      SELECT g.id FROM product_group g JOIN sub ON g.parent_id = sub.id
    )
    SELECT id FROM sub)`;
}

/** Levels from a group down to its deepest descendant: 1 for a group without children. */
export async function subtreeHeight(db: Db, rootId: number): Promise<number> {
  const result = await sql<{ height: number | string }>`
    WITH RECURSIVE sub(id, level) AS (
      SELECT CAST(${rootId} AS integer), 1
      UNION ALL
      SELECT g.id, sub.level + 1 FROM product_group g JOIN sub ON g.parent_id = sub.id
    )
    SELECT MAX(level) AS height FROM sub`.execute(db);
  return Number(result.rows[0]!.height);
}

/** Ids of a group and all its descendants. */
export async function selectSubtreeIds(db: Db, rootId: number): Promise<number[]> {
  const result = await sql<{ id: number }>`SELECT id FROM ${subtree(rootId)} AS s`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * Moves a group under a new parent (null: root level) and replaces the BMEcat-id prefix
 * of the group and its whole subtree: `oldPrefix.x.y` becomes `newPrefix.x.y`.
 */
export async function reparentAndRenumber(
  db: Db,
  move: { id: number; parentId: number | null; oldPrefix: string; newPrefix: string; now: string },
): Promise<void> {
  await sql`
    UPDATE product_group
    SET bmecat_id = ${move.newPrefix} || substr(bmecat_id, ${move.oldPrefix.length + 1}), updated_at = ${move.now}
    WHERE id IN ${subtree(move.id)}`.execute(db);
  await db.updateTable('product_group').set({ parent_id: move.parentId }).where('id', '=', move.id).execute();
}

/**
 * Deletes groups. Parent links inside the set are cut first, so no cascade recurses
 * down a deep subtree (SQLite limits the depth of cascades); names cascade one level.
 */
export async function deleteGroups(db: Db, ids: readonly number[]): Promise<void> {
  await sql`UPDATE product_group SET parent_id = NULL WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(
    db,
  );
  await sql`DELETE FROM product_group WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
}

/**
 * Takes a product out of a group if it is still in it (touching it as setProductsGroup does); returns
 * whether it was. The condition is in the UPDATE, which on PostgreSQL re-checks it on the row as a
 * concurrent transaction left it: a product moved to another group meanwhile stays there.
 */
export async function leaveGroup(db: Db, productId: number, groupId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('product')
    .set((eb) => ({ group_id: null, updated_at: now, revision: eb('revision', '+', 1) }))
    .where('id', '=', productId)
    .where('group_id', '=', groupId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function selectProductsInGroups(
  db: Db,
  groupIds: readonly number[],
): Promise<ProductMembershipRow[]> {
  const result = await sql<ProductMembershipRow>`
    SELECT id, master_id, group_id FROM product WHERE group_id IN ${catalogueSql(db).idList(groupIds)} ORDER BY id`.execute(
    db,
  );
  return result.rows;
}

/** Sets the group of products, touches their updated_at and raises their revision (product.repository.ts). */
export async function setProductsGroup(
  db: Db,
  ids: readonly number[],
  groupId: number | null,
  now: string,
): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE product SET group_id = ${groupId}, updated_at = ${now}, revision = revision + 1
    WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
  if (groupId !== null) await dropFirstFromOthers(db, ids);
}

/** Touches updated_at of products and raises their revision (these ids only, no main products). */
export async function touchProducts(db: Db, ids: readonly number[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await sql`UPDATE product SET updated_at = ${now}, revision = revision + 1
    WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
}

/** Deletes products; their variants, texts and features go with them (foreign-key cascades). */
export async function deleteProductRows(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`DELETE FROM product WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
}
