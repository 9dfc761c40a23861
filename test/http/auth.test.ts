import { beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../src/domain/errors.js';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { ADMIN_PASSWORD, type TestServer } from '../helpers/server.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOUR = 60 * 60 * 1000;

/** Every endpoint but login, plus unknown paths under /api: all need a valid token. */
const PROTECTED: [string, string][] = [
  ['GET', '/api/workspace'],
  ['POST', '/api/workspace/open'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/auth/login'],
  ['GET', '/api/no-such-endpoint'],
  ['DELETE', '/api/workspace'],
  ['GET', '/api/product'],
  ['POST', '/api/product'],
  ['GET', '/api/product/1'],
  ['PUT', '/api/product/1/texts/short/deu'],
  ['DELETE', '/api/product/1/features/x'],
  ['GET', '/api/group'],
  ['GET', '/api/group/tree'],
  ['POST', '/api/group/1/products'],
];

/**
 * One application for the file: each test logs in its own users or tokens. Moving the clock on
 * (expiry, the lock-out window) only ends tokens of the test that moved it: the others log in anew.
 */
const shared = lazyServerPerFile();

describe('POST /api/auth/login', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await shared();
    await server.addUser('viewer', 'VIEWER', 'viewer-password');
  });

  const login = (body: unknown) => server.request('POST', '/api/auth/login', { body });

  it('answers 200 with a UUID token, the user name and role', async () => {
    const res = await login({ username: 'viewer', password: 'viewer-password' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: { username: 'viewer', role: 'VIEWER' } });
    const { token } = res.body.data as { token: string };
    expect(token).toMatch(UUID_V4);
    const other = await login({ username: 'admin', password: ADMIN_PASSWORD });
    expect(other.body.data).toMatchObject({ username: 'admin', role: 'ADMIN' });
    expect((other.body.data as { token: string }).token).not.toBe(token);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
  });

  it('answers 401 for a wrong password and for an unknown user, in the envelope', async () => {
    for (const body of [
      { username: 'viewer', password: 'wrong' },
      { username: 'nobody', password: 'viewer-password' },
    ]) {
      const res = await login(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: 'INVALID_CREDENTIALS' });
    }
  });

  it.each([
    ['username missing', { password: 'x' }, /username/],
    ['password missing', { username: 'viewer' }, /password/],
    ['username not a string', { username: 42, password: 'x' }, /username/],
    ['password not a string', { username: 'viewer', password: ['x'] }, /password/],
    ['an unknown field', { username: 'viewer', password: 'x', remember: true }, /remember/],
    ['an empty username', { username: '', password: 'x' }, /username/],
    ['a JSON array', [], /object/],
  ])('answers 400 naming the problem for %s', async (_label, body, message) => {
    const res = await login(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false });
    expect(res.body.error).toMatch(message);
  });

  it.each([
    ['malformed JSON', '{"username": "viewer", "password": '],
    ['an empty body', ''],
    ['JSON null', 'null'],
  ])('answers 400 for %s', async (_label, rawBody) => {
    const res = await server.request('POST', '/api/auth/login', {
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
  });

  it('answers 400 without a body at all', async () => {
    const res = await server.request('POST', '/api/auth/login');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});

describe('the login rules of the session service', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await shared();
  });

  it('lets a user log in on this instance from any client address, each login with its own token', async () => {
    // "Another machine" is another pim instance (decisions.md; test/http/auth-machines.test.ts),
    // not another client address: several scripts share an API user.
    await server.addUser('roaming', 'EDITOR', 'roaming-password');
    const sessions = server.app.sessions;
    const first = await sessions.login('roaming', 'roaming-password', '10.0.0.1');
    const again = await sessions.login('roaming', 'roaming-password', '::ffff:10.0.0.1');
    const other = await sessions.login('roaming', 'roaming-password', '10.0.0.2');
    const http = await server.request<{ token: string }>('POST', '/api/auth/login', {
      body: { username: 'roaming', password: 'roaming-password' },
    });
    expect(http.status).toBe(200);
    const tokens = [first.token, again.token, other.token, http.body.data!.token];
    expect(new Set(tokens).size).toBe(4);
    for (const token of tokens) {
      expect(token).toMatch(UUID_V4);
      expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
    }
  });

  it('refuses a wrong password as before, whatever sessions the user holds', async () => {
    await server.addUser('holder', 'EDITOR', 'holder-password');
    const sessions = server.app.sessions;
    await sessions.login('holder', 'holder-password', '10.0.0.1');
    await expect(sessions.login('holder', 'wrong', '10.0.0.2')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(sessions.login('holder', 'wrong', '10.0.0.2')).rejects.toMatchObject({
      detailCode: 'INVALID_CREDENTIALS',
    });
  });
});

describe('too many failed logins', () => {
  it('answers 429 with Retry-After after 10 failures, even for the right password, until the window passed', async () => {
    const server = await shared();
    await server.addUser('target', 'EDITOR', 'target-password');
    const attempt = (password: string) =>
      server.request('POST', '/api/auth/login', { body: { username: 'target', password } });
    for (let i = 0; i < 10; i++) expect((await attempt(`guess-${i}`)).status).toBe(401);

    const locked = await attempt('target-password');
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i);
    // Other users are not locked out.
    expect(
      (
        await server.request('POST', '/api/auth/login', {
          body: { username: 'admin', password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(200);

    server.clock.advance(retryAfter * 1000 - 2000);
    expect((await attempt('target-password')).status).toBe(429);
    server.clock.advance(2000);
    const after = await attempt('target-password');
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ username: 'target' });
  });
});

describe('POST /api/auth/logout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await shared();
  });

  it('answers 200 {success: true} without data and ends the token for good', async () => {
    const token = await server.login();
    const other = await server.login();
    const res = await server.request('POST', '/api/auth/logout', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    for (const [method, path] of [
      ['GET', '/api/workspace'],
      ['POST', '/api/auth/logout'],
    ] as const) {
      const after = await server.request(method, path, { token });
      expect(after.status).toBe(401);
      expect(after.body.success).toBe(false);
    }
    // A later login gives a new token; the old one stays dead. Other tokens are untouched.
    const fresh = await server.login();
    expect(fresh).not.toBe(token);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(401);
    expect((await server.request('GET', '/api/workspace', { token: other })).status).toBe(200);
  });

  it('accepts an empty JSON body', async () => {
    const token = await server.login();
    const res = await server.request('POST', '/api/auth/logout', { token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });
});

describe('token expiry (24 hours from issue, not sliding)', () => {
  it('is valid 1 ms before 24 hours and expired exactly at 24 hours', async () => {
    const server = await shared();
    const token = await server.login();
    server.clock.advance(12 * HOUR);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
    server.clock.advance(12 * HOUR - 1);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
    server.clock.advance(1);
    const expired = await server.request('GET', '/api/workspace', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ success: false, code: 'TOKEN_EXPIRED' });
    expect((await server.request('POST', '/api/auth/logout', { token })).status).toBe(401);
  });
});

describe('401 for a missing, malformed, unknown or expired token', () => {
  let server: TestServer;
  let expired: string;
  let loggedOut: string;
  beforeAll(async () => {
    server = await shared();
    expired = await server.login();
    server.clock.advance(25 * HOUR);
    loggedOut = await server.login();
    await server.request('POST', '/api/auth/logout', { token: loggedOut });
  });

  const variants: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['"Bearer abc"', { authorization: 'Bearer abc' }],
    ['"Bearer" alone', { authorization: 'Bearer' }],
    [
      'Basic credentials',
      { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` },
    ],
    ['an unknown UUID', { authorization: 'Bearer 3f0c1c9e-2b7a-4c41-9d3e-8f1b2a3c4d5e' }],
  ];

  it.each(PROTECTED)('%s %s answers 401 in the envelope for every bad token', async (method, path) => {
    const all = [
      ...variants,
      ['an expired token', { authorization: `Bearer ${expired}` }],
      ['a logged-out token', { authorization: `Bearer ${loggedOut}` }],
    ] as [string, Record<string, string>][];
    for (const [label, headers] of all) {
      const res = await server.request(method, path, { headers, body: method === 'GET' ? undefined : {} });
      expect(res.status, `${label}: ${res.text}`).toBe(401);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });
});
