/** Injectable time source, so token expiry and timestamps are testable without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move forward. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(date: Date): void {
    this.current = new Date(date.getTime());
  }
}

/**
 * One instant for a whole unit of work: the first `now()` reads the source, every later one
 * answers the same. A catalogue write stamps everything it writes (updatedAt, deletedAt) with
 * its context's instant, so that the commit can move exactly those stamps if another write
 * committed a later one first (db/catalogue/change-counter-sql.ts).
 */
export class OnceClock implements Clock {
  private instant: number | undefined;
  constructor(private readonly source: Clock) {}
  now(): Date {
    this.instant ??= this.source.now().getTime();
    return new Date(this.instant);
  }
  /** A new unit of work on the same source (a job's next chunk, its own transaction and instant). */
  next(): OnceClock {
    return new OnceClock(this.source);
  }
}

/** `clock` as a OnceClock: itself when it already is one, so nested work shares the instant. */
export function onceClock(clock: Clock): OnceClock {
  return clock instanceof OnceClock ? clock : new OnceClock(clock);
}
