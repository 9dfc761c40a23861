/**
 * Counts failed logins per user name and client address within a sliding window.
 * In memory: a restart forgives, which is acceptable for a guard against guessing.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60 * 1000,
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
