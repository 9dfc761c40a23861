import { request as httpRequest } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/** The window's answers at its edges: throttles, framework refusals, unknown routes, bodies, its log. */

/**
 * One application for the file: the tests change nothing on it but a user of their own; locking the
 * admin out takes an application of its own.
 */
const shared = lazyServerPerFile({ window: true, setup: 'no-workspace' });
let server: TestServer;
beforeEach(async () => {
  server = await shared();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { success?: boolean; error?: string; code?: string };
}

/** A request with its path exactly as written and any Host (fetch normalises the one, forbids the other). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.windowUrl}/`, { method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('too many failed logins in the window', () => {
  it('answers 429 with Retry-After, as REST does', async () => {
    // Its own application: it locks the admin out.
    const server = await startServer({ window: true, setup: 'no-workspace' });
    try {
      const window = new WindowClient(server);
      const body = { username: 'admin', password: 'wrong' };
      for (let i = 0; i < 10; i++)
        expect((await window.request('POST', '/session/login', { body })).status).toBe(401);
      const refused = await window.request('POST', '/session/login', { body });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('TOO_MANY_FAILED_LOGINS');
      // All ten failures at the same instant (the test clock stands still): the full 15 minutes.
      expect(refused.headers.get('retry-after')).toBe('900');
    } finally {
      await server.stop();
    }
  });
});

describe('paths refused before routing', () => {
  it('answer 400 INVALID_URL in the envelope with the window headers', async () => {
    for (const [method, path] of [
      ['GET', '/%ff'],
      ['POST', '/ui/api/users/%ff/disable'],
      ['GET', '/ui/api/%E0%A4%A'],
    ] as const) {
      const answer = await raw(method, path, { 'x-pim-window': '1' });
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ success: false, code: 'INVALID_URL' });
      expect(answer.headers['content-type'], path).toMatch(/^application\/json/);
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect(answer.headers['cache-control'], path).toBe('no-store');
    }
    const long = await raw('POST', `/ui/api/users/${'1'.repeat(1001)}/disable`, { 'x-pim-window': '1' });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ success: false, code: 'PATH_SEGMENT_TOO_LONG' });
  });

  it("check the Host first: another machine's name is refused with 403", async () => {
    for (const path of ['/%ff', '/ui/api/users/%ff/disable']) {
      const answer = await raw('GET', path, { host: 'evil.example' });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatchObject({ success: false, code: 'HOST_NOT_ALLOWED' });
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });
});

describe('unknown window routes', () => {
  it('answer a logged-in user 404 for an unknown path and 405 with Allow for a known path', async () => {
    const admin = new WindowClient(server);
    await admin.login();
    for (const [method, path] of [
      ['DELETE', '/users/5'],
      ['GET', '/nope'],
      ['POST', '/users/1/role/extra'],
    ]) {
      const answer = await admin.request(method!, path!);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body, `${method} ${path}`).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
    }
    for (const [method, path, allow] of [
      ['GET', '/users/1/role', 'PUT'],
      ['DELETE', '/users', 'GET, POST, HEAD'],
      ['PUT', '/status', 'GET, HEAD'],
      ['GET', '/session/login', 'POST'],
    ]) {
      const answer = await admin.request(method!, path!);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.body, `${method} ${path}`).toMatchObject({ success: false, code: 'METHOD_NOT_ALLOWED' });
      expect(answer.headers.get('allow'), `${method} ${path}`).toBe(allow);
    }
  });

  it('answer an anonymous caller 401 under /ui/api, as REST answers unknown paths under /api', async () => {
    const anonymous = new WindowClient(server);
    // The answer a known endpoint gives without a session.
    const known = await anonymous.request('GET', '/status');
    expect(known.status).toBe(401);
    for (const [method, path] of [
      ['DELETE', '/users/5'],
      ['GET', '/users/1/role'],
      ['GET', '/nope'],
      ['GET', '/session/login'],
    ]) {
      const answer = await anonymous.request(method!, path!);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body, `${method} ${path}`).toEqual(known.body);
    }
    // Outside the API: no session needed to learn that a page does not exist.
    const page = await raw('GET', '/no-such-page');
    expect(page.status).toBe(404);
    expect(page.body).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
  });
});

describe('validation messages of the window', () => {
  it('name the allowed roles', async () => {
    const admin = new WindowClient(server);
    await admin.login();
    const cases: [string, string, unknown][] = [
      ['POST', '/users', { username: 'rooty', role: 'ROOT', password: 'rooty-password' }],
      ['PUT', '/users/1/role', { role: 'ROOT' }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await admin.request(method, path, { body });
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({
        success: false,
        code: 'VALIDATION_FAILED',
        error: 'role must be one of ADMIN, EDITOR, VIEWER',
      });
    }
  });
});

describe('bodies the window refuses as REST does', () => {
  const post = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${server.windowUrl}/ui/api${path}`, {
      method: 'POST',
      headers: { 'x-pim-window': '1', ...headers },
      body,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));

  it('a __proto__ key: 400 VALIDATION_FAILED, not "not valid JSON"', async () => {
    const answer = await post(
      '/session/login',
      '{"username":"admin","password":"admin-password-1","__proto__":{"x":1}}',
      { 'content-type': 'application/json' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(answer.body.error).toContain('__proto__');
  });

  it('a charset other than UTF-8, or a Content-Encoding: 415, the body never read wrongly', async () => {
    const body = JSON.stringify({ username: 'admin', password: 'admin-password-1' });
    const refused: Record<string, string>[] = [
      { 'content-type': 'application/json; charset=utf-16' },
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ];
    for (const headers of refused) {
      const answer = await post('/session/login', body, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(415);
      expect(answer.body, JSON.stringify(headers)).toMatchObject({
        success: false,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    // UTF-8 named as such is read.
    const utf8 = await post('/session/login', body, { 'content-type': 'application/json; charset=UTF-8' });
    expect(utf8.status).toBe(200);
  });
});

describe('user names in the window', () => {
  it('are trimmed before their length is checked, as by the user service', async () => {
    const admin = new WindowClient(server);
    await admin.login();
    const name = 'u'.repeat(64);
    const added = await admin.request<{ username: string }>('POST', '/users', {
      body: { username: `  ${name}  `, role: 'VIEWER', password: 'viewer-password-1' },
    });
    expect(added.status).toBe(201);
    expect(added.body.data?.username).toBe(name);
    const tooLong = await admin.request('POST', '/users', {
      body: { username: `  ${name}v  `, role: 'VIEWER', password: 'viewer-password-1' },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      error: 'username must be at most 64 characters',
    });
  });
});
