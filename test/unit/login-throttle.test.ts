import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/domain/sessions/login-throttle.js';

const WINDOW = 15 * 60 * 1000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('the login throttle', () => {
  it('allows 10 failures in the window and locks the 11th attempt until the oldest failure leaves it', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 9; i++) throttle.recordFailure('bob|host', T0 + i * 1000);
    expect(throttle.retryAfterSeconds('bob|host', T0 + 9000)).toBe(0);
    throttle.recordFailure('bob|host', T0 + 9000);
    expect(throttle.retryAfterSeconds('bob|host', T0 + 9000)).toBe(WINDOW / 1000 - 9);
    expect(throttle.retryAfterSeconds('bob|host', T0 + WINDOW - 1)).toBe(1);
    // The oldest failure leaves the window: 9 remain, the next attempt is allowed.
    expect(throttle.retryAfterSeconds('bob|host', T0 + WINDOW)).toBe(0);
  });

  it('counts per key and forgets a key on reset', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++) throttle.recordFailure('bob|a', T0);
    expect(throttle.retryAfterSeconds('bob|a', T0)).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds('bob|b', T0)).toBe(0);
    expect(throttle.retryAfterSeconds('alice|a', T0)).toBe(0);
    throttle.reset('bob|a');
    expect(throttle.retryAfterSeconds('bob|a', T0)).toBe(0);
  });

  it('locks exactly when at least 10 failures lie in the last 15 minutes, for at most 15 minutes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 * WINDOW }), { maxLength: 30 }),
        fc.integer({ min: 0, max: WINDOW }),
        (offsets, after) => {
          const times = offsets.map((o) => T0 + o).sort((a, b) => a - b);
          const throttle = new LoginThrottle();
          for (const t of times) throttle.recordFailure('k', t);
          const now = (times.at(-1) ?? T0) + after;
          const inWindow = times.filter((t) => t > now - WINDOW).length;
          const wait = throttle.retryAfterSeconds('k', now);
          if (inWindow >= 10) {
            expect(wait).toBeGreaterThan(0);
            expect(wait).toBeLessThanOrEqual(WINDOW / 1000);
            // Waiting that long is enough.
            expect(throttle.retryAfterSeconds('k', now + wait * 1000)).toBe(0);
          } else {
            expect(wait).toBe(0);
          }
        },
      ),
    );
  });

  it('counts attempts under way as room taken, never as failures: only failures lock', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++) {
      expect(throttle.hasRoom('k', T0)).toBe(true);
      throttle.start('k');
    }
    // Ten under way: no room for an eleventh (all ten may yet fail), but the key is not locked.
    expect(throttle.hasRoom('k', T0)).toBe(false);
    expect(throttle.retryAfterSeconds('k', T0)).toBe(0);
    // One succeeds: room again. Nine fail: no room (nine failures and the new attempt under way).
    throttle.finish('k');
    expect(throttle.hasRoom('k', T0)).toBe(true);
    throttle.start('k');
    for (let i = 0; i < 9; i++) throttle.finish('k', T0);
    expect(throttle.hasRoom('k', T0)).toBe(false);
    expect(throttle.retryAfterSeconds('k', T0)).toBe(0);
    throttle.finish('k', T0);
    expect(throttle.retryAfterSeconds('k', T0)).toBe(WINDOW / 1000);
  });

  it('never lets more attempts start than may fail within the limit, whatever the order of outcomes', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('start', 'succeed', 'fail'), { maxLength: 100 }), (steps) => {
        const throttle = new LoginThrottle();
        let underWay = 0;
        let failed = 0;
        for (const step of steps) {
          if (step === 'start' && throttle.hasRoom('k', T0)) {
            throttle.start('k');
            underWay++;
          } else if (step !== 'start' && underWay > 0) {
            throttle.finish('k', step === 'fail' ? T0 : undefined);
            underWay--;
            if (step === 'fail') failed++;
          }
          expect(failed + underWay).toBeLessThanOrEqual(10);
          expect(throttle.retryAfterSeconds('k', T0) > 0).toBe(failed >= 10);
        }
      }),
    );
  });
});
