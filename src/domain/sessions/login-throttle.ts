/**
 * Counts failed logins per key within a sliding window, and the attempts under way whose outcome
 * is not known yet. In memory: a restart forgives, which is acceptable for a guard against guessing.
 *
 * Only failures lock a key. Attempts under way do not lock it, but take room: an attempt starts
 * only while the failures plus the attempts under way stay below the limit, so that even if all
 * of them fail the limit holds. A burst of parallel guesses therefore gets at most the limit's
 * worth of verifications, while parallel logins with the right password wait for room (each
 * success gives its room back at once) instead of being refused.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly underWay = new Map<string, number>();

  constructor(
    readonly maxFailures = 10,
    readonly windowMs = 15 * 60 * 1000,
  ) {}

  /** Seconds until the key is unlocked (its failures alone reach the limit), or 0 when it is not locked. */
  retryAfterSeconds(key: string, nowMs: number): number {
    const recent = this.recent(key, nowMs);
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000));
  }

  /** Whether one more attempt may start now: the limit holds even if every attempt under way fails. */
  hasRoom(key: string, nowMs: number): boolean {
    return this.recent(key, nowMs).length + (this.underWay.get(key) ?? 0) < this.maxFailures;
  }

  /** An attempt starts (after `hasRoom`, in the same synchronous step); `finish` must follow. */
  start(key: string): void {
    this.underWay.set(key, (this.underWay.get(key) ?? 0) + 1);
  }

  /** An attempt ended; `failedAtMs` records it as a failure (a wrong password). */
  finish(key: string, failedAtMs?: number): void {
    const count = (this.underWay.get(key) ?? 0) - 1;
    if (count > 0) this.underWay.set(key, count);
    else this.underWay.delete(key);
    if (failedAtMs !== undefined) this.recordFailure(key, failedAtMs);
  }

  recordFailure(key: string, nowMs: number): void {
    const recent = this.recent(key, nowMs);
    recent.push(nowMs);
    this.failures.set(key, recent);
    if (this.failures.size > 10_000) this.prune(nowMs);
  }

  /** Forgets the key's failures (a successful login); attempts under way still count. */
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
