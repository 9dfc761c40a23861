import { sql } from 'kysely';
import { catalogueSql, type BulkColumn, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { entriesJson, mergeEntries, parseEntries } from '../features/entry-list.rules.js';
import { ensureDefinition } from '../features/feature.repository.js';
import { dropFirstFromOthers } from '../products/product-parts.repository.js';
import { upsertProductFeatures, upsertTexts } from '../products/product-bulk-write.repository.js';
import type { LockedProductRow } from '../products/product-lock.repository.js';
import { touchProducts } from '../products/product.repository.js';
import { applyDelete, restoreDeleted } from './mass-edit-delete.js';
import type { MassEditPlan } from './mass-edit-plan.js';
import type { ChunkChange, ChunkOutcome, RestoreOutcome } from './mass-edit-chunk.types.js';

export type { ChunkChange, ChunkOutcome, RestoreOutcome } from './mass-edit-chunk.types.js';

/**
 * One action, set-based over a chunk: a few statements per chunk whatever its size, never a
 * service call per product (docs/mass-edits.md). `apply` gets the chunk's products as locked (in
 * id order, the selected ones only), writes and touches what changes and returns the before
 * states; `restore` writes them back (the caller has checked the revisions) and touches.
 */
export interface ActionRunner {
  apply(db: WorkspaceDb, rows: readonly LockedProductRow[], at: string): Promise<ChunkOutcome>;
  restore(db: WorkspaceDb, changes: readonly ChunkChange[], at: string): Promise<RestoreOutcome>;
}

const NOTHING_LOST: RestoreOutcome = { skipped: [], lost: [] };

export function runnerOf(plan: MassEditPlan): ActionRunner {
  switch (plan.name) {
    case 'setText':
      return textRunner(plan);
    case 'setFeature':
    case 'removeFeature':
      return featureRunner(plan);
    case 'assignGroup':
      return groupRunner(plan.groupId);
    case 'unassignGroup':
      return groupRunner(null);
    case 'delete':
      return { apply: applyDelete, restore: restoreDeleted };
  }
}

function textRunner(plan: Extract<MassEditPlan, { name: 'setText' }>): ActionRunner {
  const { kind, lang, value } = plan;
  return {
    async apply(db, rows, at) {
      const list = catalogueSql(db).idList(rows.map((r) => r.id));
      const stored = await sql<{
        product_id: number;
        value: string;
      }>`SELECT product_id, value FROM product_text
        WHERE kind = ${kind} AND lang = ${lang} AND product_id IN ${list}`.execute(db);
      const had = new Map(stored.rows.map((r) => [r.product_id, r.value]));
      const changes = rows
        .filter((r) => had.get(r.id) !== value)
        .map((r) => ({ id: r.id, before: { v: had.get(r.id) ?? null } }));
      const replaced = changes.filter((c) => had.has(c.id)).map((c) => c.id);
      const added = changes.filter((c) => !had.has(c.id)).map((c) => c.id);
      const { idList } = catalogueSql(db);
      if (replaced.length > 0)
        await sql`UPDATE product_text SET value = ${value}
          WHERE kind = ${kind} AND lang = ${lang} AND product_id IN ${idList(replaced)}`.execute(db);
      if (added.length > 0)
        await sql`INSERT INTO product_text (product_id, kind, lang, value)
          SELECT p.id, ${kind}, ${lang}, ${value} FROM product p WHERE p.id IN ${idList(added)}`.execute(db);
      await touchProducts(
        db,
        changes.map((c) => c.id),
        at,
      );
      return { changes, unchanged: rows.length - changes.length, variantsDeleted: 0 };
    },
    async restore(db, changes, at) {
      const befores = changes.map((c) => ({ id: c.id, v: (c.before as { v: string | null }).v }));
      const absent = befores.filter((b) => b.v === null).map((b) => b.id);
      if (absent.length > 0)
        await sql`DELETE FROM product_text WHERE kind = ${kind} AND lang = ${lang}
          AND product_id IN ${catalogueSql(db).idList(absent)}`.execute(db);
      await upsertTexts(
        db,
        befores.flatMap((b) =>
          b.v === null ? [] : [[b.id, kind, lang, b.v] as [number, typeof kind, string, string]],
        ),
      );
      await touchProducts(
        db,
        changes.map((c) => c.id),
        at,
      );
      return NOTHING_LOST;
    },
  };
}

/** A product_feature row of the feature, as stored: [occurrence, funit, position, values_json, details_json]. */
type FeatureRowBefore = [number, string | null, number, string, string | null];

interface StoredFeature {
  product_id: number;
  occurrence: number;
  funit: string | null;
  position: number;
  values_json: string;
  details_json: string | null;
}

function featureRunner(plan: Extract<MassEditPlan, { name: 'setFeature' | 'removeFeature' }>): ActionRunner {
  return {
    async apply(db, rows, at) {
      const featureId =
        plan.name === 'setFeature'
          ? await ensureDefinition(db, plan.ftidref)
          : await definitionId(db, plan.ftidref);
      const ids = rows.map((r) => r.id);
      const stored = featureId === undefined ? [] : await storedFeatures(db, featureId, ids);
      const byProduct = new Map<number, StoredFeature[]>();
      for (const row of stored)
        byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), row]);
      const before = (id: number): { f: FeatureRowBefore[] } => ({
        f: (byProduct.get(id) ?? []).map((r) => [
          r.occurrence,
          r.funit,
          r.position,
          r.values_json,
          r.details_json,
        ]),
      });
      if (plan.name === 'removeFeature') {
        const changes = ids.filter((id) => byProduct.has(id)).map((id) => ({ id, before: before(id) }));
        if (changes.length > 0)
          await sql`DELETE FROM product_feature WHERE feature_id = ${featureId!}
            AND product_id IN ${catalogueSql(db).idList(changes.map((c) => c.id))}`.execute(db);
        await touchProducts(
          db,
          changes.map((c) => c.id),
          at,
        );
        return { changes, unchanged: ids.length - changes.length, variantsDeleted: 0 };
      }
      const lastPositions = await lastPosition(
        db,
        ids.filter((id) => !byProduct.has(id)),
      );
      const writes: [number, number, string | null, number, string][] = [];
      const changes: ChunkChange[] = [];
      for (const id of ids) {
        const first = byProduct.get(id)?.find((r) => r.occurrence === 1);
        const current = first ? parseEntries(first.values_json) : [];
        const funit = plan.funit !== undefined ? plan.funit : (first?.funit ?? null);
        const values = entriesJson(mergeEntries(current, plan.values));
        if (first && first.funit === funit && entriesJson(current) === values) continue;
        changes.push({ id, before: before(id) });
        writes.push([
          id,
          featureId!,
          funit,
          first ? first.position : (lastPositions.get(id) ?? 0) + 1,
          values,
        ]);
      }
      await upsertProductFeatures(db, writes);
      await touchProducts(
        db,
        changes.map((c) => c.id),
        at,
      );
      return { changes, unchanged: ids.length - changes.length, variantsDeleted: 0 };
    },
    async restore(db, changes, at) {
      // The definition may have been dropped since (a bulk write drops unused ones): made again.
      const featureId = await ensureDefinition(db, plan.ftidref);
      const ids = changes.map((c) => c.id);
      await sql`DELETE FROM product_feature WHERE feature_id = ${featureId}
        AND product_id IN ${catalogueSql(db).idList(ids)}`.execute(db);
      const rows = changes.flatMap((c) =>
        (c.before as { f: FeatureRowBefore[] }).f.map(([occurrence, funit, position, values, details]) => [
          c.id,
          featureId,
          occurrence,
          funit,
          position,
          values,
          details,
        ]),
      );
      await insertFeatureRows(db, rows);
      await touchProducts(db, ids, at);
      return NOTHING_LOST;
    },
  };
}

async function definitionId(db: WorkspaceDb, ftidref: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('feature_def')
    .select('id')
    .where('ftidref', '=', ftidref)
    .executeTakeFirst();
  return row?.id;
}

async function storedFeatures(
  db: WorkspaceDb,
  featureId: number,
  ids: readonly number[],
): Promise<StoredFeature[]> {
  const result =
    await sql<StoredFeature>`SELECT product_id, occurrence, funit, position, values_json, details_json
    FROM product_feature WHERE feature_id = ${featureId} AND product_id IN ${catalogueSql(db).idList(ids)}
    ORDER BY product_id, occurrence`.execute(db);
  return result.rows;
}

/** The last feature position of each product that has features (a new feature goes after it). */
async function lastPosition(db: WorkspaceDb, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const result = await sql<{ product_id: number; last: number }>`SELECT product_id, MAX(position) AS last
    FROM product_feature WHERE product_id IN ${catalogueSql(db).idList(ids)} GROUP BY product_id`.execute(db);
  return new Map(result.rows.map((r) => [r.product_id, Number(r.last)]));
}

const FEATURE_COLUMNS: BulkColumn[] = [
  ['product_id', 'integer'],
  ['feature_id', 'integer'],
  ['occurrence', 'integer'],
  ['funit', 'text'],
  ['position', 'integer'],
  ['values_json', 'json'],
  ['details_json', 'json'],
];

/** Inserts product_feature rows as they were: [product_id, feature_id, occurrence, funit, position, values, details]. */
export async function insertFeatureRows(
  db: WorkspaceDb,
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = sql.join(FEATURE_COLUMNS.map(([n]) => sql.ref(n)));
  const picked = sql.join(FEATURE_COLUMNS.map(([n]) => sql.ref(`j.${n}`)));
  await sql`INSERT INTO product_feature (${names})
    SELECT ${picked} FROM ${catalogueSql(db).bulk.rows(FEATURE_COLUMNS, rows)}`.execute(db);
}

/** Before: the product's first group and the position of the other-group entry the assignment dropped. */
interface GroupBefore {
  g: number | null;
  x: number | null;
}

function groupRunner(groupId: number | null): ActionRunner {
  return {
    async apply(db, rows, at) {
      const changing = rows.filter((r) => r.group_id !== groupId);
      const ids = changing.map((r) => r.id);
      const { idList } = catalogueSql(db);
      const dropped = new Map<number, number>();
      if (groupId !== null && ids.length > 0) {
        const extra = await sql<{ product_id: number; position: number }>`SELECT product_id, position
          FROM product_extra_group WHERE group_id = ${groupId} AND product_id IN ${idList(ids)}`.execute(db);
        for (const r of extra.rows) dropped.set(r.product_id, r.position);
      }
      const changes = changing.map((r) => ({
        id: r.id,
        before: { g: r.group_id, x: dropped.get(r.id) ?? null } satisfies GroupBefore,
      }));
      if (ids.length > 0) {
        await sql`UPDATE product SET group_id = ${groupId} WHERE id IN ${idList(ids)}`.execute(db);
        if (groupId !== null) await dropFirstFromOthers(db, ids);
      }
      await touchProducts(db, ids, at);
      return { changes, unchanged: rows.length - changes.length, variantsDeleted: 0 };
    },
    async restore(db, changes, at) {
      const befores = changes.map((c) => ({ id: c.id, ...(c.before as GroupBefore) }));
      const named = [...new Set(befores.flatMap((b) => (b.g === null ? [] : [b.g])))];
      const existing = await existingGroups(db, groupId === null ? named : [...named, groupId]);
      const lost: string[] = [];
      const rows = befores.map((b) => {
        if (b.g !== null && !existing.has(b.g)) {
          lost.push(
            `Product ${b.id} was in group ${b.g}, which has been deleted since: it is left without group`,
          );
          return [b.id, null];
        }
        return [b.id, b.g];
      });
      const columns: BulkColumn[] = [
        ['id', 'integer'],
        ['group_id', 'integer'],
      ];
      await sql`UPDATE product SET group_id = j.group_id FROM ${catalogueSql(db).bulk.rows(columns, rows)}
        WHERE product.id = j.id`.execute(db);
      if (groupId !== null && existing.has(groupId)) {
        const extras = befores.flatMap((b) => (b.x === null ? [] : [[b.id, b.x, groupId]]));
        const extraColumns: BulkColumn[] = [
          ['product_id', 'integer'],
          ['position', 'integer'],
          ['group_id', 'integer'],
        ];
        if (extras.length > 0)
          await sql`INSERT INTO product_extra_group (product_id, position, group_id)
            SELECT j.product_id, j.position, j.group_id FROM ${catalogueSql(db).bulk.rows(extraColumns, extras)}
            WHERE true ON CONFLICT DO NOTHING`.execute(db);
      }
      const ids = befores.map((b) => b.id);
      await dropFirstFromOthers(db, ids);
      await touchProducts(db, ids, at);
      return { skipped: [], lost };
    },
  };
}

export async function existingGroups(db: WorkspaceDb, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const result = await sql<{ id: number }>`SELECT id FROM product_group
    WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
  return new Set(result.rows.map((r) => r.id));
}
