/**
 * Counts failed logins per key within a sliding window. In memory: a restart forgives, which is
 * acceptable for a guard against guessing.
 *
 * `reserve` checks and records in one synchronous step, before the password is verified, so
 * that a burst of parallel attempts cannot all pass the check while the first ones are still
 * being verified; a successful login gives its reservation back.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    readonly maxFailures = 10,
    readonly windowMs = 15 * 60 * 1000,
  ) {}

  /** Seconds until the next attempt is allowed, or 0 when it is allowed now. */
  retryAfterSeconds(key: string, nowMs: number): number {
    const recent = this.recent(key, nowMs);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000));
  }

  recordFailure(key: string, nowMs: number): void {
    const recent = this.recent(key, nowMs);
    recent.push(nowMs);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.prune(nowMs);
  }

  /** Records an attempt as failed unless the key is locked; returns the seconds to wait (0: recorded). */
  reserve(key: string, nowMs: number): number {
    const wait = this.retryAfterSeconds(key, nowMs);
    if (wait === 0) this.recordFailure(key, nowMs);
    return wait;
  }

  /** Takes back one attempt recorded at `atMs` (it succeeded, or was never tried). */
  release(key: string, atMs: number): void {
    const times = this.failures.get(key);
    const index = times?.lastIndexOf(atMs) ?? -1;
    if (times && index >= 0) times.splice(index, 1);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > nowMs - this.windowMs);
  }

  private prune(nowMs: number): void {
    for (const [key, times] of this.failures) {
      if (!times.some((t) => t > nowMs - this.windowMs)) this.failures.delete(key);
    }
  }
}
