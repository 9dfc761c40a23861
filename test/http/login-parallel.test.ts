import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

// Passwords hashed at the production cost, not the tests' cheap one (vitest.config.ts): the logins
// must be under way at the same time.
vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', '');
// The files after this one in the same worker (vitest.config.ts: no isolation) hash cheaply again.
afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * Parallel logins: only failed attempts count against the throttle. Attempts under way take
 * room (so that parallel guessing stays bounded, login-hardening.test.ts) but never refuse the
 * right password.
 */

let server: TestServer;

beforeEach(async () => {
  server = await startServer({ setup: 'no-workspace', window: true });
});

afterEach(async () => {
  await server.stop();
});

const restLogin = (password: string) =>
  server.request('POST', '/api/auth/login', { body: { username: 'admin', password } });

const windowLogin = (password: string) =>
  new WindowClient(server).request('POST', '/session/login', { body: { username: 'admin', password } });

function statuses(answers: { status: number }[]): number[] {
  return answers.map((a) => a.status);
}

describe('parallel logins with the right password', () => {
  it('all succeed on REST, 40 at once', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => restLogin(ADMIN_PASSWORD)));
    expect(statuses(answers)).toEqual(Array(40).fill(200));
  });

  it('all succeed in the window, 40 at once', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => windowLogin(ADMIN_PASSWORD)));
    expect(statuses(answers)).toEqual(Array(40).fill(200));
  });

  it('all succeed among a few wrong ones in flight at the same time, which answer 401', async () => {
    const passwords = Array.from({ length: 40 }, (_, i) => (i % 8 === 3 ? `guess-${i}` : ADMIN_PASSWORD));
    const answers = await Promise.all(passwords.map((password) => restLogin(password)));
    expect(statuses(answers)).toEqual(passwords.map((p) => (p === ADMIN_PASSWORD ? 200 : 401)));
  });

  it('still limits parallel guessing in the window: 10 verified, the rest 429, then locked', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => windowLogin(`guess-${i}`)));
    const counts = statuses(answers).reduce<Record<number, number>>(
      (all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ 401: 10, 429: 20 });
    expect((await windowLogin(ADMIN_PASSWORD)).status).toBe(429);
  });
});
