import type { JobDtoValue } from './job.schemas.js';

/**
 * What a job of this process did, as its listeners hear it (the window pushes it to the user who
 * started the job): `started` once, `progress` as often as progress is recorded (at most every
 * 250 ms) and when a cancel is asked for, `ended` once with the job as it ended. Jobs of other
 * instances (team mode) are not heard here: their progress is in the shared database only.
 */
export interface JobEvent {
  type: 'started' | 'progress' | 'ended';
  job: JobDtoValue;
  /** The user who started it (the DTO names them; listeners compare ids). */
  actorId: number;
}

export type JobListener = (event: JobEvent) => void;

/**
 * The jobs this process runs, as last recorded, and who listens to them: in memory, so that a
 * listener is told without reading the database, and one that joins late (a window that opens
 * while an import runs) learns what runs now.
 */
export class JobEvents {
  private readonly active = new Map<number, { job: JobDtoValue; actorId: number }>();
  private readonly listeners = new Set<JobListener>();

  /** Calls `listener` with every event from now on; returns the unsubscribe. */
  listen(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  running(): { job: JobDtoValue; actorId: number }[] {
    return [...this.active.values()];
  }

  started(job: JobDtoValue, actorId: number): void {
    this.active.set(job.id, { job, actorId });
    this.tell({ type: 'started', job, actorId });
  }

  /** A change of a running job (its progress, a cancel asked for); nothing for a job not running here. */
  changed(id: number, change: Partial<JobDtoValue>): void {
    const entry = this.active.get(id);
    if (!entry) return;
    entry.job = { ...entry.job, ...change };
    this.tell({ type: 'progress', job: entry.job, actorId: entry.actorId });
  }

  /** The job as it ended (undefined: it could not be read, and is only forgotten). */
  ended(id: number, job: JobDtoValue | undefined): void {
    const entry = this.active.get(id);
    this.active.delete(id);
    if (entry && job) this.tell({ type: 'ended', job, actorId: entry.actorId });
  }

  private tell(event: JobEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own (a stream that broke); the job goes on.
      }
    }
  }
}
