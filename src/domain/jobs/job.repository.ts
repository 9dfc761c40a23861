import type { Kysely, Selectable } from 'kysely';
import type { JobTable, SystemDatabase } from '../../db/system.schema.js';

type Db = Kysely<SystemDatabase>;
export type JobRow = Selectable<JobTable> & { username: string | null };

export async function insertJob(
  db: Db,
  row: {
    kind: string;
    workspaceId: number | null;
    createdBy: number;
    now: string;
    runner: string;
    input: string;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('job')
    .values({
      kind: row.kind,
      workspace_id: row.workspaceId,
      state: 'running',
      processed: 0,
      total: null,
      created_by: row.createdBy,
      created_at: row.now,
      started_at: row.now,
      finished_at: null,
      runner: row.runner,
      heartbeat_at: row.now,
      cancel_requested: 0,
      input_json: row.input,
      report_json: null,
      error_json: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

function selectJobs(db: Db) {
  return db
    .selectFrom('job')
    .leftJoin('user', 'user.id', 'job.created_by')
    .selectAll('job')
    .select('user.username as username');
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  return selectJobs(db).where('job.id', '=', id).executeTakeFirst();
}

/** The newest jobs first; `createdBy` limits them to one user's. */
export async function listJobs(db: Db, limit: number, createdBy?: number): Promise<JobRow[]> {
  let query = selectJobs(db);
  if (createdBy !== undefined) query = query.where('job.created_by', '=', createdBy);
  return query.orderBy('job.created_at', 'desc').orderBy('job.id', 'desc').limit(limit).execute();
}

/** Progress and heartbeat; returns whether a cancel was asked for meanwhile. */
export async function recordProgress(
  db: Db,
  id: number,
  progress: { processed: number; total: number | null; now: string },
): Promise<boolean> {
  const row = await db
    .updateTable('job')
    .set({ processed: progress.processed, total: progress.total, heartbeat_at: progress.now })
    .where('id', '=', id)
    .returning('cancel_requested')
    .executeTakeFirst();
  return (row?.cancel_requested ?? 0) === 1;
}

export async function finishJob(
  db: Db,
  id: number,
  end: {
    state: 'succeeded' | 'failed' | 'cancelled';
    now: string;
    report: string | null;
    error: string | null;
    processed: number;
  },
): Promise<void> {
  await db
    .updateTable('job')
    .set({
      state: end.state,
      finished_at: end.now,
      heartbeat_at: end.now,
      report_json: end.report,
      error_json: end.error,
      processed: end.processed,
    })
    .where('id', '=', id)
    .execute();
}

/** Asks a running job to stop; returns false when it was no longer running. */
export async function requestCancel(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('job')
    .set({ cancel_requested: 1 })
    .where('id', '=', id)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
