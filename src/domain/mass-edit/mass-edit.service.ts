import { stepWhenLockFree } from '../jobs/job-lock-wait.js';
import { onceClock } from '../clock.js';
import { RIGHTS, useWorkspace, type RequestContext, type WorkspaceContext } from '../context.js';
import { atField } from '../errors.js';
import { lockGroupRow } from '../groups/group.repository.js';
import { groupNotFound } from '../groups/group.service.js';
import type { JobDtoValue } from '../jobs/job.schemas.js';
import type { JobHandle, JobService } from '../jobs/job.service.js';
import { lockProducts } from '../products/product-lock.repository.js';
import { resolveSelection } from '../products/product-selection.service.js';
import { appendIds, type IdRange } from './id-ranges.js';
import { runnerOf } from './mass-edit-actions.js';
import { planOf, type MassEditPlan } from './mass-edit-plan.js';
import { previewItems, variantsTakenAlong } from './mass-edit-preview.js';
import { recordMassEdit, writeUndoRows } from './mass-edit.repository.js';
import {
  MASS_EDIT_PREVIEW_ITEMS,
  type MassEditPreviewValue,
  type MassEditReportValue,
  type MassEditRequestValue,
} from './mass-edit.schemas.js';

/**
 * Products per chunk: each chunk is one catalogue transaction (docs/mass-edits.md). Large enough
 * that the per-statement cost is spread (a chunk is a few set-based statements), small enough that
 * a chunk holds the writer (SQLite) or its rows' locks (PostgreSQL) for a fraction of a second,
 * so that other users' single edits get in between, and progress comes well within a second.
 */
export const MASS_EDIT_CHUNK = 1_000;

/** A context for one chunk: its own transaction with its own instant (stamps follow the commit order). */
export function chunkContext(ctx: WorkspaceContext): WorkspaceContext {
  return useWorkspace(
    {
      actor: ctx.actor,
      clock: onceClock(ctx.clock).next(),
      workspace: ctx.workspace,
      language: ctx.language,
    },
    RIGHTS.edit,
  );
}

/** Lets other requests in between two chunks (reads and single edits of other users). */
export const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The checks a plan needs of the catalogue (an assignment's group exists): before any job starts. */
async function checkPlan(ctx: WorkspaceContext, plan: MassEditPlan): Promise<void> {
  if (plan.name === 'assignGroup' && !(await lockGroupRow(ctx.db, plan.groupId)))
    throw atField(groupNotFound(plan.groupId), 'action.assignGroup.groupId');
}

/**
 * dryRun: the number of products the request would work on and the first few of them before and
 * after, exactly the part the action changes. Nothing is written. EDITOR right, as the edit itself.
 */
export async function previewMassEdit(
  context: RequestContext,
  request: MassEditRequestValue,
): Promise<MassEditPreviewValue> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const plan = planOf(request.action);
  await checkPlan(ctx, plan);
  const ids = await resolveSelection(ctx, request.select);
  return ctx.snapshot(async (trx) => {
    const read = useWorkspace({ ...ctx, trx }, RIGHTS.edit);
    return {
      count: ids.length,
      variants: plan.name === 'delete' ? await variantsTakenAlong(trx, ids) : 0,
      items: await previewItems(read, plan, ids.slice(0, MASS_EDIT_PREVIEW_ITEMS)),
    };
  });
}

/**
 * Starts a mass edit as a job of kind `mass-edit`: everything is checked first (rights, the action,
 * the selection, the group), so a bad request never starts a job. Returns the job as it starts
 * and the promise of its end.
 */
export async function startMassEdit(
  context: RequestContext,
  jobs: JobService,
  request: MassEditRequestValue,
): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const plan = planOf(request.action);
  await checkPlan(ctx, plan);
  const ids = await resolveSelection(ctx, request.select);
  // Ids as ranges: the job (read by every poll of it) need not carry 100,000 numbers.
  const { ids: named, ...filters } = request.select;
  const idRanges: IdRange[] = [];
  if (named !== undefined)
    appendIds(
      idRanges,
      [...new Set(named)].sort((a, b) => a - b),
    );
  const input = { select: named === undefined ? filters : { ...filters, idRanges }, action: request.action };
  return jobs.start(ctx, 'mass-edit', input, (job) => runMassEdit(ctx, job, plan, ids), RIGHTS.edit);
}

async function runMassEdit(
  ctx: WorkspaceContext,
  job: JobHandle,
  plan: MassEditPlan,
  ids: readonly number[],
): Promise<MassEditReportValue> {
  const report: MassEditReportValue = {
    action: plan.name,
    selected: ids.length,
    changed: 0,
    changedIds: [],
    unchanged: 0,
    missing: 0,
    variantsDeleted: 0,
    partial: true,
    undoable: false,
  };
  // Read when the job is cancelled or fails: exactly what the committed chunks wrote.
  job.keepReport(report);
  await job.progress(0, ids.length);
  const runner = runnerOf(plan);
  const deletedAlong = new Set<number>();
  let recorded = false;
  for (let start = 0; start < ids.length; start += MASS_EDIT_CHUNK) {
    const chunk = ids.slice(start, start + MASS_EDIT_CHUNK);
    // Its own instant per try: a chunk that waited for another process's lock is stamped when it commits.
    const done = await stepWhenLockFree(job, start, () => {
      const step = chunkContext(ctx);
      return step.transaction(async (trx) => {
        const at = step.clock.now().toISOString();
        if (plan.name === 'assignGroup' && !(await lockGroupRow(trx, plan.groupId)))
          throw groupNotFound(plan.groupId);
        const deleting = plan.name === 'delete';
        const locked = await lockProducts(trx, chunk, deleting ? 'delete' : 'change', { variants: deleting });
        const wanted = new Set(chunk);
        const rows = locked.filter((r) => wanted.has(r.id));
        const outcome = await runner.apply(trx, rows, at);
        if (outcome.changes.length > 0) {
          if (!recorded) await recordMassEdit(trx, job.id, plan.name, at);
          const changed = new Set(outcome.changes.map((c) => c.id));
          const masters = rows.flatMap((r) =>
            changed.has(r.id) && r.master_id !== null ? [r.master_id] : [],
          );
          await writeUndoRows(trx, job.id, outcome.changes, deleting ? [] : [...new Set(masters)]);
        }
        return { outcome, found: new Set(rows.map((r) => r.id)) };
      });
    });
    // Counted once committed: the report never names a change that was rolled back.
    const { outcome, found } = done;
    if (outcome.changes.length > 0) recorded = true;
    report.changed += outcome.changes.length;
    appendIds(
      report.changedIds,
      outcome.changes.map((c) => c.id),
    );
    report.unchanged += outcome.unchanged;
    report.variantsDeleted += outcome.variantsDeleted;
    for (const id of outcome.deletedAlong ?? []) deletedAlong.add(id);
    report.missing += chunk.filter((id) => !found.has(id) && !deletedAlong.has(id)).length;
    report.undoable = recorded;
    await yieldTurn();
    await job.progress(Math.min(start + MASS_EDIT_CHUNK, ids.length), ids.length);
  }
  report.partial = false;
  return report;
}
