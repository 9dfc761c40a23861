import { stepWhenLockFree } from '../jobs/job-lock-wait.js';
import { sql } from 'kysely';
import { catalogueSql, type WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import {
  RIGHTS,
  SYSTEM_ACTOR,
  useWorkspace,
  type RequestContext,
  type WorkspaceContext,
} from '../context.js';
import { ConflictError } from '../errors.js';
import type { JobDtoValue } from '../jobs/job.schemas.js';
import type { JobHandle, JobService } from '../jobs/job.service.js';
import { lockProducts } from '../products/product-lock.repository.js';
import { appendIds } from './id-ranges.js';
import { runnerOf } from './mass-edit-actions.js';
import { planOf } from './mass-edit-plan.js';
import { countUndoRows, dropUndoRows, findMassEdit, setUndoneBy, undoRows } from './mass-edit.repository.js';
import type {
  MassEditActionValue,
  MassEditReportValue,
  MassEditUndoReportValue,
} from './mass-edit.schemas.js';
import { chunkContext, MASS_EDIT_CHUNK, yieldTurn } from './mass-edit.service.js';

/** Products named one by one in an undo's report; beyond, they are counted (skippedCount). */
const SKIPPED_NAMED = 1_000;

/**
 * Starts the undo of a finished mass edit as a job of kind `mass-edit-undo`: each product the edit
 * changed gets its state before back, unless someone changed it since (its revision moved): then it
 * is left alone and named in the report. Refused (409) for a job that is no mass edit of the open
 * workspace, is still running, was undone already, changed nothing, or whose undo data is no
 * longer kept.
 */
export async function startUndo(
  context: RequestContext,
  jobs: JobService,
  jobId: number,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const edit = await jobs.get(ctx, jobId);
  if (edit.kind !== 'mass-edit' || edit.workspaceId !== ctx.workspace.id)
    throw new ConflictError(
      `Job ${jobId} is not a mass edit of the open workspace: it cannot be undone`,
      'JOB_NOT_MASS_EDIT',
    );
  if (edit.state === 'queued' || edit.state === 'running')
    throw new ConflictError(
      `Mass edit ${jobId} is still running: cancel it or wait for its end`,
      'JOB_RUNNING',
    );
  const record = await findMassEdit(ctx.db, jobId);
  if (!record) {
    const report = edit.report as MassEditReportValue | null;
    if (!report || report.changed === 0)
      throw new ConflictError(
        `Mass edit ${jobId} changed nothing: there is nothing to undo`,
        'NOTHING_TO_UNDO',
      );
    throw new ConflictError(
      `The undo data of mass edit ${jobId} is no longer kept (a workspace keeps it for its newest mass edits)`,
      'UNDO_EXPIRED',
    );
  }
  const earlier = record.undone_by;
  if (earlier !== null) {
    // Another user's undo is not visible to this one: asked as the owner, only for its state.
    const undo = await jobs.get({ ...ctx, actor: SYSTEM_ACTOR }, earlier).catch(() => undefined);
    if (undo?.state === 'succeeded')
      throw new ConflictError(`Mass edit ${jobId} was undone already (job ${earlier})`, 'MASS_EDIT_UNDONE');
    if (undo?.state === 'running' || undo?.state === 'queued')
      throw new ConflictError(`Mass edit ${jobId} is being undone (job ${earlier})`, 'JOB_RUNNING');
  }
  const action = (edit.input as { action: MassEditActionValue }).action;
  return jobs.start(
    ctx,
    'mass-edit-undo',
    { jobId },
    (job) => runUndo(ctx, job, jobId, action, earlier),
    RIGHTS.edit,
  );
}

async function runUndo(
  ctx: WorkspaceContext,
  job: JobHandle,
  editId: number,
  action: MassEditActionValue,
  earlier: number | null,
): Promise<MassEditUndoReportValue> {
  const report: MassEditUndoReportValue = {
    massEditJobId: editId,
    restored: 0,
    restoredIds: [],
    skipped: [],
    skippedCount: 0,
    lost: [],
    partial: true,
  };
  job.keepReport(report);
  // Claimed outside the catalogue's transactions: bookkeeping, not a change of the catalogue.
  const db = ctx.workspace.db;
  const claimed = await db
    .updateTable('mass_edit')
    .set({ undone_by: job.id })
    .where('job_id', '=', editId)
    .where((eb) => (earlier === null ? eb('undone_by', 'is', null) : eb('undone_by', '=', earlier)))
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n)
    throw new ConflictError(`Mass edit ${editId} is being undone by another job`, 'JOB_RUNNING');
  let finished = false;
  try {
    const total = await countUndoRows(db, editId);
    await job.progress(0, total);
    const runner = runnerOf(planOf(action));
    const deleted = 'delete' in action;
    let after = 0;
    let processed = 0;
    for (;;) {
      const rows = await undoRows(db, editId, after, MASS_EDIT_CHUNK);
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.product_id;
      const outcome = await stepWhenLockFree(job, processed, () => {
        const step = chunkContext(ctx);
        return step.transaction(async (trx) => {
          const at = step.clock.now().toISOString();
          const ids = rows.map((r) => r.product_id);
          const current = deleted ? new Map<number, Head>() : await lockedHeads(trx, ids);
          const skipped: { id: number; reason: string }[] = [];
          const eligible = rows.filter((r) => {
            if (deleted) return true;
            const head = current.get(r.product_id);
            if (head?.revision === r.revision_after) return true;
            skipped.push({
              id: r.product_id,
              reason: head ? 'changed by someone else since the mass edit' : 'deleted since the mass edit',
            });
            return false;
          });
          const restored = await runner.restore(
            trx,
            eligible.map((r) => ({ id: r.product_id, before: JSON.parse(r.before_json) as unknown })),
            at,
          );
          skipped.push(...restored.skipped);
          await dropUndoRows(trx, editId, ids);
          const left = new Set(skipped.map((s) => s.id));
          const pids = await supplierPids(
            trx,
            skipped.map((s) => s.id),
            current,
          );
          return {
            restoredIds: eligible.map((r) => r.product_id).filter((id) => !left.has(id)),
            skipped: skipped.map((s) => ({ ...s, supplierPid: pids.get(s.id) ?? '' })),
            lost: restored.lost,
          };
        });
      });
      report.restored += outcome.restoredIds.length;
      appendIds(report.restoredIds, outcome.restoredIds);
      report.skippedCount += outcome.skipped.length;
      for (const s of outcome.skipped) if (report.skipped.length < SKIPPED_NAMED) report.skipped.push(s);
      report.lost.push(...outcome.lost.slice(0, Math.max(0, SKIPPED_NAMED - report.lost.length)));
      processed += rows.length;
      await yieldTurn();
      await job.progress(processed, total);
    }
    report.partial = false;
    finished = true;
    return report;
  } finally {
    // Cut short: the rows not yet restored are still there, and the undo may be run again.
    if (!finished) await setUndoneBy(db, editId, null).catch(() => undefined);
  }
}

interface Head {
  revision: number;
  supplier_pid: string;
}

/** The products as they are now, locked in id order until the chunk commits (PostgreSQL). */
async function lockedHeads(db: WorkspaceDb, ids: readonly number[]): Promise<Map<number, Head>> {
  await lockProducts(db, ids, 'change');
  const rows = await sql<{ id: number } & Head>`SELECT id, revision, supplier_pid FROM product
    WHERE id IN ${catalogueSql(db).idList(ids)}`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r]));
}

/** supplierPids for a report: of the products as they are, else as their deletion recorded them. */
async function supplierPids(
  db: WorkspaceDb,
  ids: readonly number[],
  known: ReadonlyMap<number, Head>,
): Promise<Map<number, string>> {
  const pids = new Map<number, string>();
  for (const id of ids) {
    const head = known.get(id);
    if (head) pids.set(id, head.supplier_pid);
  }
  const rest = ids.filter((id) => !pids.has(id));
  if (rest.length === 0) return pids;
  const list = catalogueSql(db).idList(rest);
  const found = await sql<{
    id: number;
    supplier_pid: string;
  }>`SELECT id, supplier_pid FROM product WHERE id IN ${list}
    UNION ALL SELECT id, supplier_pid FROM product_deletion WHERE id IN ${list}`.execute(db);
  for (const r of found.rows) if (!pids.has(r.id)) pids.set(r.id, r.supplier_pid);
  return pids;
}
