import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, PG_SERVER_URL, TEST_BACKEND } from '../helpers/backend.js';
import { pollUntil } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';
import { TcpProxy } from './tcp-proxy.js';
import { startTeam, type Team } from './team.js';

/**
 * Team mode with the shared database down (issue 11, "the database unreachable"): requests that
 * need it answer 503 in the envelope within the connect timeout, never hang or 500, opening a
 * workspace answers 400, the window's status says so, and everything recovers by itself once
 * the server is back. The server "goes down" by cutting a TCP proxy in front of it.
 */
describe.runIf(TEST_BACKEND === 'postgres')('the shared database unreachable', () => {
  const proxy = new TcpProxy(Number(new URL(PG_SERVER_URL).port || 5432));
  let database: { name: string; url: string };
  let team: Team;
  let server: TestServer;
  let token: string;
  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token, body });

  beforeAll(async () => {
    await proxy.restore();
    database = await createTestDatabase();
    const url = new URL(database.url);
    url.port = String(proxy.port);
    team = await startTeam(1, { url: url.toString() });
    server = team.instances[0]!;
    token = team.tokens[0]!;
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await team?.stop();
    await proxy.cut();
    if (database) await dropTestDatabase(database.name);
  });

  it('answers 503 while it is down and recovers without a restart when it is back', async () => {
    const created = await call<{ id: number }>('POST', '/api/product', { supplierPid: 'BEFORE' });
    expect(created.status).toBe(201);
    const id = created.body.data!.id;
    const ws = (await call<Array<{ id: number; name: string }>>('GET', '/api/workspace')).body.data!;

    await proxy.cut();
    const started = Date.now();
    const answers = [
      await call('GET', `/api/product/${id}`),
      await call('GET', '/api/product?all=true'),
      await call('POST', '/api/product', { supplierPid: 'DURING' }),
      await call('PUT', `/api/product/${id}/texts/short/deu`, { value: 'x' }),
      await call('GET', '/api/group/tree'),
      await server.request('POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong' } }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.body).toEqual({
        success: false,
        error: 'The database cannot be reached; try again shortly',
        code: 'DATABASE_UNAVAILABLE',
      });
      expect(answer.headers.get('retry-after')).toBe('5');
    }
    // Within the connect timeout (5 s) each, and here at once: the proxy refuses connections.
    expect(Date.now() - started).toBeLessThan(6 * answers.length * 1000);

    const open = await call('POST', '/api/workspace/open', { workspaceId: ws[0]!.id });
    expect(open.status).toBe(400);
    expect(open.body.code).toBe('WORKSPACE_DATABASE_UNREACHABLE');
    expect(open.body.error).toMatch(/unreachable/);

    // The window's status bar learns of it from the application's probe.
    const state = () => server.app.windowDeps().databaseState();
    await pollUntil('the status says the database is down', () => !state().reachable, 5000);
    expect(state().kind).toBe('postgres');
    expect(state().target).not.toContain('@127.0.0.1:5432');

    await proxy.restore();
    await pollUntil(
      'the product is readable again',
      async () => (await call('GET', `/api/product/${id}`)).status === 200,
      10_000,
    );
    await pollUntil('the status says the database is back', () => state().reachable, 5000);
    expect((await call('POST', '/api/product', { supplierPid: 'AFTER' })).status).toBe(201);
    const pids = (await call<Array<{ supplierPid: string }>>('GET', '/api/product?all=true')).body.data!;
    expect(pids.map((p) => p.supplierPid)).toEqual(['BEFORE', 'AFTER']);
    // Logins are answered again (a wrong password is a 401, not a 503).
    expect(
      (await server.request('POST', '/api/auth/login', { body: { username: 'admin', password: 'wrong' } }))
        .status,
    ).toBe(401);
  });
});
