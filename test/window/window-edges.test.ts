import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/** The window's answers at its edges: throttles, framework refusals, unknown routes, bodies, its log. */

let server: TestServer;
beforeEach(async () => {
  server = await startServer({ window: true, setup: 'no-workspace' });
});
afterEach(async () => server.stop());

describe('too many failed logins in the window', () => {
  it('answers 429 with Retry-After, as REST does', async () => {
    const window = new WindowClient(server);
    const body = { username: 'admin', password: 'wrong' };
    for (let i = 0; i < 10; i++)
      expect((await window.request('POST', '/session/login', { body })).status).toBe(401);
    const refused = await window.request('POST', '/session/login', { body });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_FAILED_LOGINS');
    // All ten failures at the same instant (the test clock stands still): the full 15 minutes.
    expect(refused.headers.get('retry-after')).toBe('900');
  });
});
