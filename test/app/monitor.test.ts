import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

describe('the REST API monitor', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ setup: 'no-workspace' });
  });
  afterAll(() => server.stop());

  it('records method, path with query, status, user, timestamp and duration of every request', async () => {
    const before = Date.now();
    const token = await server.login();
    await server.request('GET', '/api/workspace?verbose=true&x=%2F', { token });
    await server.request('GET', '/api/workspace');
    await server.request('DELETE', '/api/workspace', { token });
    await server.request('GET', '/outside?q=1');
    const entries = server.app.monitor.latest(4);
    expect(entries.map((e) => [e.method, e.path, e.status, e.user])).toEqual([
      // Unknown query parameters: 400, recorded with the query as sent.
      ['GET', '/api/workspace?verbose=true&x=%2F', 400, 'admin'],
      ['GET', '/api/workspace', 401, undefined],
      ['DELETE', '/api/workspace', 405, 'admin'],
      ['GET', '/outside?q=1', 404, undefined],
    ]);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([
        'durationMs',
        'method',
        'path',
        'status',
        'timestamp',
        'user',
      ]);
      expect(entry.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(entry.timestamp)).toBeGreaterThanOrEqual(before - 1000);
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
      expect(entry.durationMs).toBeLessThan(10_000);
    }
    const login = server.app.monitor.latest().find((e) => e.path === '/api/auth/login');
    expect(login).toMatchObject({ method: 'POST', status: 200 });
  });

  it('records requests refused before routing, such as a path that does not decode', async () => {
    await server.request('GET', '/api/product/%FF?x=1');
    expect(server.app.monitor.latest(1).map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/product/%FF?x=1', 400],
    ]);
  });

  it('never records a token, password or body; secrets in a query string are masked', async () => {
    const token = await server.login();
    await server.request('GET', `/api/workspace?token=${token}&access_token=${token}&Password=hunter2`, {
      token,
    });
    expect(server.app.monitor.latest(1)[0]!.path).toBe(
      '/api/workspace?token=***&access_token=***&Password=***',
    );
    await server.request('POST', '/api/workspace/open', { token, body: { workspaceName: 'secret-name' } });
    const text = JSON.stringify(server.app.monitor.latest());
    expect(text).not.toContain(token);
    expect(text).not.toContain('secret-name');
    expect(text).not.toContain('admin-password');
    expect(text).not.toContain('hunter2');
  });
});
