import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { RIGHTS, requireRight, type RequestContext } from '../context.js';
import type { Right } from '../users/roles.js';
import { ConflictError, DomainError, NotFoundError, ServiceBusyError } from '../errors.js';
import { JobEvents, type JobListener } from './job-events.js';
import * as repo from './job.repository.js';
import type { JobDtoValue, JobErrorValue, JobState } from './job.schemas.js';

export type { JobEvent, JobListener } from './job-events.js';

/**
 * Long work (a BMEcat import now; exports and mass edits next) as jobs: kept in the system
 * database (the shared one in team mode, so every instance sees every job), with progress, a
 * report at the end, and cancel. The work runs in the process that started it; it reports
 * progress through its handle, which is also where a cancel reaches it. A job whose process
 * stopped before it ended (a crash, kill -9) stops sending heartbeats and reads as failed.
 *
 * A class, as the architecture note allows where a service holds state across calls: the
 * heartbeats of the jobs this process runs.
 */
export interface JobHandle {
  readonly id: number;
  /** Records progress (at most every PROGRESS_EVERY_MS); throws JobCancelledError once a cancel was asked for. */
  progress(processed: number, total?: number | null): Promise<void>;
  /**
   * The report a cancelled or failed job keeps (read when it ends): a job that commits as it goes
   * (a mass edit, in chunks) says there exactly what it wrote. Without it such a job's report is null.
   */
  keepReport(report: unknown): void;
}

/** Thrown into a job's work when a cancel was asked for: the work undoes what it did (its transaction). */
export class JobCancelledError extends Error {
  constructor() {
    super('The job was cancelled');
  }
}

/** A job's failure with a place in its input: the importer's BmecatError has line and column. */
interface LocatedError {
  message: string;
  line?: number;
  column?: number;
}

const PROGRESS_EVERY_MS = 250;
const HEARTBEAT_EVERY_MS = 5_000;
/** A running job without a heartbeat for this long has lost its process. */
const STALE_AFTER_MS = 30_000;
const LIST_LIMIT = 100;

/** Thrown into a job's work when its process stops: the work undoes what it did; the job fails. */
class JobStoppedError extends Error {
  constructor() {
    super('pim stopped before the job ended: nothing was written');
  }
}

export class JobService {
  private readonly heartbeats = new Map<number, NodeJS.Timeout>();
  /** The jobs this process runs, until they have ended. */
  private readonly running = new Map<number, Promise<JobDtoValue>>();
  /**
   * A cancel asked of a job this process runs reaches its work at its very next progress; one
   * asked on another instance (team mode) when the job next records its progress or heartbeat.
   */
  private readonly cancels = new Map<number, () => void>();
  private stopping = false;
  /** What the jobs of this process do, for listeners (the window's push). */
  private readonly events = new JobEvents();

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
    /** This instance (its machine id), recorded as the job's runner. */
    private readonly runner: string,
  ) {}

  /**
   * Starts `work` as a job of `kind` on the context's workspace; returns the job as it starts and
   * a promise of the job as it ended (which never rejects: a failure is the job's state).
   */
  async start(
    ctx: RequestContext,
    kind: string,
    input: Record<string, unknown>,
    work: (job: JobHandle) => Promise<unknown>,
    /** The right the work needs (an export reads only); its services check it again. */
    right: Right = RIGHTS.edit,
  ): Promise<{ job: JobDtoValue; done: Promise<JobDtoValue> }> {
    requireRight(ctx, right);
    if (this.stopping) throw new ServiceBusyError('pim is stopping: start the job again once it runs', 5);
    const now = this.clock.now().toISOString();
    const id = await repo.insertJob(this.db, {
      kind,
      workspaceId: ctx.workspace?.id ?? null,
      createdBy: ctx.actor.id,
      now,
      runner: this.runner,
      input: JSON.stringify(input),
    });
    const job = await this.read(id);
    this.events.started(job, ctx.actor.id);
    const done = this.run(id, work).finally(() => this.running.delete(id));
    this.running.set(id, done);
    return { job, done };
  }

  private async run(id: number, work: (job: JobHandle) => Promise<unknown>): Promise<JobDtoValue> {
    let processed = 0;
    let total: number | null = null;
    let lastWrite = 0;
    let cancelled = false;
    let kept: unknown = undefined;
    const timer = setInterval(() => {
      void repo
        .recordProgress(this.db, id, { processed, total, now: this.clock.now().toISOString() })
        .then((asked) => (cancelled ||= asked))
        .catch(() => undefined);
    }, HEARTBEAT_EVERY_MS);
    timer.unref();
    this.heartbeats.set(id, timer);
    this.cancels.set(id, () => (cancelled = true));
    const handle: JobHandle = {
      id,
      progress: async (done, all) => {
        processed = done;
        if (all !== undefined) total = all;
        const at = Date.now();
        if (!cancelled && at - lastWrite >= PROGRESS_EVERY_MS) {
          lastWrite = at;
          cancelled = await repo.recordProgress(this.db, id, {
            processed,
            total,
            now: this.clock.now().toISOString(),
          });
          this.events.changed(id, { processed, total });
        }
        if (this.stopping) throw new JobStoppedError();
        if (cancelled) throw new JobCancelledError();
      },
      keepReport: (report) => {
        kept = report;
      },
    };
    let end: { state: 'succeeded' | 'failed' | 'cancelled'; report: string | null; error: string | null };
    try {
      const report = await work(handle);
      end = { state: 'succeeded', report: JSON.stringify(report ?? null), error: null };
    } catch (error) {
      const report = kept === undefined ? null : JSON.stringify(kept);
      end =
        error instanceof JobCancelledError
          ? { state: 'cancelled', report, error: null }
          : { state: 'failed', report, error: JSON.stringify(jobError(error)) };
      // The work may have failed on a closing workspace rather than at its progress: the stop says why.
      if (this.stopping && end.state === 'failed')
        end.error = JSON.stringify(jobError(new JobStoppedError()));
    } finally {
      clearInterval(timer);
      this.heartbeats.delete(id);
      this.cancels.delete(id);
    }
    let ended: JobDtoValue | undefined;
    try {
      await repo.finishJob(this.db, id, { ...end, now: this.clock.now().toISOString(), processed });
      return (ended = await this.read(id));
    } finally {
      this.events.ended(id, ended);
    }
  }

  /**
   * Calls `listener` with every start, progress and end of the jobs this process runs (not those
   * of other instances); returns the unsubscribe. Called synchronously; a throw is swallowed.
   */
  onEvent(listener: JobListener): () => void {
    return this.events.listen(listener);
  }

  /** The jobs this process runs now, as last recorded, with who started each. */
  runningJobs(): { job: JobDtoValue; actorId: number }[] {
    return this.events.running();
  }

  /**
   * Ends the jobs this process runs, at their next progress: they fail ("pim stopped"), their work
   * undone. New jobs are refused meanwhile. The application calls it when it stops.
   */
  async stopAll(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.running.values()].map((done) => done.catch(() => undefined)));
  }

  /** A job the caller may see: ADMINs every job, others their own. */
  async get(ctx: RequestContext, id: number): Promise<JobDtoValue> {
    requireRight(ctx, RIGHTS.read);
    const row = await repo.findJob(this.db, id);
    if (!row || !this.visible(ctx, row)) throw jobNotFound(id);
    return this.toDto(row);
  }

  /** The newest jobs the caller may see (at most 100), newest first. */
  async list(ctx: RequestContext): Promise<JobDtoValue[]> {
    requireRight(ctx, RIGHTS.read);
    const rows = await repo.listJobs(
      this.db,
      LIST_LIMIT,
      ctx.actor.role === 'ADMIN' ? undefined : ctx.actor.id,
    );
    return rows.map((row) => this.toDto(row));
  }

  /**
   * Asks a job to stop: its work gives up at its next progress and undoes what it did. 409 for a
   * job that has ended. Answers the job as it stands (still running until the work has stopped).
   */
  async cancel(ctx: RequestContext, id: number): Promise<JobDtoValue> {
    requireRight(ctx, RIGHTS.edit);
    const job = await this.get(ctx, id);
    if (job.state !== 'queued' && job.state !== 'running')
      throw new ConflictError(
        `Job ${id} has ${job.state === 'succeeded' ? 'succeeded' : `been ${job.state}`}: it can no longer be cancelled`,
        'JOB_FINISHED',
      );
    await repo.requestCancel(this.db, id);
    const asked = await this.get(ctx, id);
    if (asked.cancelRequested) this.cancels.get(id)?.();
    // A job of this process: its listeners hear that it is stopping before it has.
    if (asked.cancelRequested) this.events.changed(id, { cancelRequested: true });
    return asked;
  }

  private visible(ctx: RequestContext, row: repo.JobRow): boolean {
    // The machine's owner (the command line) is an ADMIN too.
    return ctx.actor.role === 'ADMIN' || row.created_by === ctx.actor.id;
  }

  private async read(id: number): Promise<JobDtoValue> {
    return this.toDto((await repo.findJob(this.db, id))!);
  }

  private toDto(row: repo.JobRow): JobDtoValue {
    const stale =
      (row.state === 'running' || row.state === 'queued') &&
      this.clock.now().getTime() - Date.parse(row.heartbeat_at) > STALE_AFTER_MS;
    const state = (stale ? 'failed' : row.state) as JobState;
    const error: JobErrorValue | null = stale
      ? {
          message: row.kind.startsWith('mass-edit')
            ? 'The job was cut short: the process running it stopped before it ended; the chunks it committed stay'
            : 'The job was cut short: the process running it stopped before it ended; it wrote nothing',
          code: null,
          line: null,
          column: null,
        }
      : row.error_json === null
        ? null
        : (JSON.parse(row.error_json) as JobErrorValue);
    return {
      id: row.id,
      kind: row.kind,
      state,
      workspaceId: row.workspace_id,
      processed: row.processed,
      total: row.total,
      // The command line acts as the machine's owner (user 0).
      createdBy: row.username ?? (row.created_by === 0 ? 'system' : `user ${row.created_by}`),
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: stale ? null : row.finished_at,
      cancelRequested: row.cancel_requested === 1 && (state === 'queued' || state === 'running'),
      input: JSON.parse(row.input_json) as Record<string, unknown>,
      report: row.report_json === null ? null : (JSON.parse(row.report_json) as unknown),
      error,
    };
  }
}

function jobNotFound(id: number): NotFoundError {
  return new NotFoundError(`No job ${id} that you may see`, 'JOB_NOT_FOUND');
}

function jobError(error: unknown): JobErrorValue {
  const located = error as LocatedError;
  return {
    message: error instanceof Error ? error.message : String(error),
    code: error instanceof DomainError ? error.detailCode : null,
    line: typeof located.line === 'number' ? located.line : null,
    column: typeof located.column === 'number' ? located.column : null,
  };
}
