import { sql, type Kysely } from 'kysely';
import { groupNameSql } from '../../db/catalogue/shared-sql.js';
import type { WorkspaceDatabase } from '../../db/workspace.schema.js';
import type { NameLanguages } from './group.repository.js';

type Db = Kysely<WorkspaceDatabase>;

/** Counts come back as numbers (SQLite) or strings (PostgreSQL's bigint). */
type Count = number | string;

export interface ChildRow {
  id: number;
  parent_id: number | null;
  name: string;
  child_count: Count;
  product_count: Count;
}

/**
 * The groups under one parent (null: the root level) with their counts: one range of the index
 * product_group_parent (parent_id, id), and per child two counts over the indexes
 * product_group_parent and product_group_member, as selectGroupRows counts them.
 */
export async function selectChildRows(
  db: Db,
  languages: NameLanguages,
  parentId: number | null,
): Promise<ChildRow[]> {
  const where = parentId === null ? sql`g.parent_id IS NULL` : sql`g.parent_id = ${parentId}`;
  const result = await sql<ChildRow>`
    SELECT g.id, g.parent_id, ${groupNameSql(languages.preferred, languages.fallback)} AS name,
      (SELECT COUNT(*) FROM product_group c WHERE c.parent_id = g.id) AS child_count,
      (SELECT COUNT(*) FROM product p WHERE p.group_id = g.id) AS product_count
    FROM product_group g
    WHERE ${where}
    ORDER BY g.id`.execute(db);
  return result.rows;
}

export interface PathRow {
  id: number;
  name: string;
  depth: Count;
}

/** A group and its ancestors with their names, the group at depth 0 (none when it does not exist). */
export async function selectPathRows(db: Db, languages: NameLanguages, id: number): Promise<PathRow[]> {
  const result = await sql<PathRow>`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 0 FROM product_group WHERE id = ${id}
      UNION ALL
      SELECT g.id, g.parent_id, up.depth + 1 FROM product_group g JOIN up ON g.id = up.parent_id
    )
    SELECT g.id, ${groupNameSql(languages.preferred, languages.fallback)} AS name, up.depth
    FROM up JOIN product_group g ON g.id = up.id
    ORDER BY up.depth DESC`.execute(db);
  return result.rows;
}

export interface DeleteEffectRow {
  subgroup_count: Count;
  product_count: Count;
  other_variant_count: Count;
}

/**
 * What deleting the subtree of `rootId` touches, counted as deleteGroup acts: the groups below it,
 * the products in the subtree, and the variants outside it of main products inside it (a delete of
 * the products takes them along by cascade).
 */
export async function selectDeleteEffects(db: Db, rootId: number): Promise<DeleteEffectRow> {
  const result = await sql<DeleteEffectRow>`
    WITH RECURSIVE sub(id) AS (
      SELECT CAST(${rootId} AS integer)
      UNION ALL
      SELECT g.id FROM product_group g JOIN sub ON g.parent_id = sub.id
    )
    SELECT
      (SELECT COUNT(*) FROM sub) - 1 AS subgroup_count,
      (SELECT COUNT(*) FROM product p WHERE p.group_id IN (SELECT id FROM sub)) AS product_count,
      (SELECT COUNT(*) FROM product v JOIN product m ON m.id = v.master_id
        WHERE m.group_id IN (SELECT id FROM sub)
          AND (v.group_id IS NULL OR v.group_id NOT IN (SELECT id FROM sub))) AS other_variant_count`.execute(
    db,
  );
  return result.rows[0]!;
}
