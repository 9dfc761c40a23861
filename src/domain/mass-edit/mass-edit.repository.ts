import { sql } from 'kysely';
import { catalogueSql, type BulkColumn, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { ChunkChange } from './mass-edit-chunk.types.js';

/** Mass edits whose undo data a workspace keeps: the newest ones (docs/mass-edits.md, "Retention"). */
export const UNDO_KEPT_EDITS = 20;

/**
 * Records a mass edit that is about to write, and forgets the undo data of the older ones beyond
 * the newest UNDO_KEPT_EDITS (their rows go with them: a foreign key's cascade).
 */
export async function recordMassEdit(
  db: WorkspaceDb,
  jobId: number,
  action: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('mass_edit')
    .values({ job_id: jobId, action, created_at: at, undone_by: null })
    .execute();
  const kept = db.selectFrom('mass_edit').select('job_id').orderBy('job_id', 'desc').limit(UNDO_KEPT_EDITS);
  await db
    .deleteFrom('mass_edit')
    .where('job_id', 'not in', db.selectFrom(kept.as('k')).select('k.job_id'))
    .execute();
}

export async function findMassEdit(db: WorkspaceDb, jobId: number) {
  return db.selectFrom('mass_edit').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

export async function setUndoneBy(db: WorkspaceDb, jobId: number, undoJobId: number | null): Promise<void> {
  await db.updateTable('mass_edit').set({ undone_by: undoJobId }).where('job_id', '=', jobId).execute();
}

const UNDO_COLUMNS: BulkColumn[] = [
  ['product_id', 'integer'],
  ['before_json', 'text'],
];

/**
 * Keeps the before states of a chunk's changed products, with their revisions as the chunk leaves
 * them, in the chunk's transaction. `touched` are products the chunk touched besides (the main
 * products of changed variants): those of this edit get their revision after updated too, so that
 * the edit's own touches never read as someone else's change.
 */
export async function writeUndoRows(
  db: WorkspaceDb,
  jobId: number,
  changes: readonly ChunkChange[],
  touched: readonly number[],
): Promise<void> {
  const catalogue = catalogueSql(db);
  if (changes.length > 0) {
    const rows = changes.map((c) => [c.id, JSON.stringify(c.before)]);
    await sql`INSERT INTO mass_edit_undo (job_id, product_id, revision_after, before_json)
      SELECT ${jobId}, j.product_id, COALESCE(p.revision, 0), j.before_json
      FROM ${catalogue.bulk.rows(UNDO_COLUMNS, rows)} LEFT JOIN product p ON p.id = j.product_id`.execute(db);
  }
  if (touched.length > 0)
    await sql`UPDATE mass_edit_undo SET revision_after =
        (SELECT p.revision FROM product p WHERE p.id = mass_edit_undo.product_id)
      WHERE job_id = ${jobId} AND product_id IN ${catalogue.idList(touched)}
        AND product_id IN (SELECT id FROM product)`.execute(db);
}

export interface UndoRow {
  product_id: number;
  revision_after: number;
  before_json: string;
}

/** The next `limit` undo rows of a mass edit after product `afterId`, in id order. */
export async function undoRows(
  db: WorkspaceDb,
  jobId: number,
  afterId: number,
  limit: number,
): Promise<UndoRow[]> {
  return db
    .selectFrom('mass_edit_undo')
    .select(['product_id', 'revision_after', 'before_json'])
    .where('job_id', '=', jobId)
    .where('product_id', '>', afterId)
    .orderBy('product_id')
    .limit(limit)
    .execute();
}

export async function countUndoRows(db: WorkspaceDb, jobId: number): Promise<number> {
  const row = await db
    .selectFrom('mass_edit_undo')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes undo rows once their products were restored (or found changed by someone else); how many were there. */
export async function dropUndoRows(db: WorkspaceDb, jobId: number, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql`DELETE FROM mass_edit_undo
    WHERE job_id = ${jobId} AND product_id IN ${catalogueSql(db).idList(ids)}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
