import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { freePort, startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

let server: TestServer;
let restPort: number;

/**
 * An application of the test's own, REST on a port of the settings: for the tests that move
 * servers, change settings, compare the users or the monitor whole.
 */
function ownServerPerTest(): void {
  beforeEach(async () => {
    restPort = await freePort();
    server = await startServer({ window: true, restPort });
  });
  afterEach(async () => server.stop());
}

describe('the desktop session', () => {
  // One application for these: each test logs in with a window client (a cookie) of its own, and a
  // login replacing the desktop session or a logout ends only sessions the test itself opened.
  const shared = lazyServerPerFile({ window: true });
  beforeEach(async () => {
    server = await shared();
  });

  it('opens with the desktop credentials and an HttpOnly, SameSite=Strict cookie', async () => {
    const window = new WindowClient(server);
    // Nothing about the machine before a login: no machine id, no version.
    expect((await window.request('GET', '/session')).body.data).toEqual({ user: null });
    expect((await window.request('GET', '/status')).status).toBe(401);
    const wrong = await window.request('POST', '/session/login', {
      body: { username: 'admin', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    const res = await window.request('POST', '/session/login', {
      body: { username: 'admin', password: 'admin-password-1' },
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pim_desktop=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect((await window.request('GET', '/session')).body.data).toMatchObject({
      user: { username: 'admin', role: 'ADMIN' },
      machineId: server.app.machineId,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect((await window.request('GET', '/status')).body.data).toMatchObject({
      user: { username: 'admin' },
      workspace: { name: 'Test' },
      rest: { enabled: true, running: true },
    });
  });

  it('refuses state changes without the window header or from another site (CSRF)', async () => {
    const window = new WindowClient(server);
    const body = { username: 'admin', password: 'admin-password-1' };
    const noHeader = await window.request('POST', '/session/login', { body, windowHeader: false });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.code).toBe('CSRF_REFUSED');
    const foreign = await window.request('POST', '/session/login', {
      body,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    await window.login();
    const own = await window.request('POST', '/session/logout', { headers: { origin: server.windowUrl } });
    expect(own.status).toBe(200);
  });

  it('demands the session on the matched route, whatever the spelling of its path', async () => {
    const { request } = await import('node:http');
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${server.windowUrl}${path}`, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of [
      '/ui/api/status',
      '/ui/%61pi/status',
      '/%75i/api/status',
      '/ui/%61pi/users',
      '/ui/api/nothing',
    ]) {
      expect(await get(path), path).toBe(401);
    }
  });

  it('answers only this machine while bound to loopback (DNS rebinding)', async () => {
    // fetch cannot set Host; node:http can.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.windowUrl}/ui/api/session`,
        { headers: { host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("ends the other user's desktop session at once when another user logs in", async () => {
    await server.addUser('erika', 'EDITOR');
    const first = new WindowClient(server);
    await first.login();
    const events = first.events();
    await events.waitFor((e) => e.event === 'status');
    const second = new WindowClient(server);
    await second.login('erika', 'erika-password');
    const ended = await events.waitFor((e) => e.event === 'session-ended', 1_000);
    expect(ended.data).toMatchObject({ username: 'admin', reason: 'replaced' });
    expect((await first.request('GET', '/status')).status).toBe(401);
    expect((await second.request('GET', '/status')).body.data).toMatchObject({ user: { username: 'erika' } });
    events.close();
  });

  it('closes when the desktop user logs out over REST, within a second; window logout keeps REST tokens', async () => {
    const window = new WindowClient(server);
    await window.login();
    const token = await server.login();
    const events = window.events();
    await events.waitFor((e) => e.event === 'status');
    expect((await server.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    const ended = await events.waitFor((e) => e.event === 'session-ended', 1_000);
    expect(ended.data).toMatchObject({ reason: 'rest-logout' });
    expect((await window.request('GET', '/status')).status).toBe(401);

    await window.login();
    const other = await server.login();
    expect((await window.request('POST', '/session/logout')).status).toBe(200);
    expect((await server.request('GET', '/api/workspace', { token: other })).status).toBe(200);
    events.close();
  });
});

describe('Settings › Rest API', () => {
  ownServerPerTest();

  async function busyPort(): Promise<{ port: number; close: () => Promise<void> }> {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    return { port, close: () => new Promise((resolve) => blocker.close(() => resolve())) };
  }

  it('starts, moves and stops the REST server at once, and refuses a busy port changing nothing', async () => {
    const window = new WindowClient(server);
    await window.login();
    const current = (await window.request<{ port: number; state: { port: number } }>('GET', '/settings/rest'))
      .body.data!;
    expect(current).toMatchObject({ enabled: true, editable: true, state: { running: true } });

    const blocked = await busyPort();
    const refused = await window.request('PUT', '/settings/rest', {
      body: { enabled: true, port: blocked.port, host: '127.0.0.1' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'PORT_IN_USE', field: 'port' });
    expect(refused.body.error).toContain(`Port ${blocked.port}`);
    expect(await server.app.settings.get('rest.port')).toBe(restPort);
    await blocked.close();

    const off = await window.request('PUT', '/settings/rest', {
      body: { enabled: false, port: restPort, host: '127.0.0.1' },
    });
    expect(off.body.data).toMatchObject({ enabled: false, state: { running: false } });
    await expect(fetch(`${server.baseUrl}/api/workspace`)).rejects.toThrow();

    const free = await busyPort();
    await free.close();
    const on = await window.request<{ state: { url: string } }>('PUT', '/settings/rest', {
      body: { enabled: true, port: free.port, host: '127.0.0.1' },
    });
    expect(on.status).toBe(200);
    expect(on.body.data!.state.url).toBe(`http://127.0.0.1:${free.port}/api`);
    const token = await (
      await import('../helpers/http.js')
    ).loginAt(`http://127.0.0.1:${free.port}`, 'admin', 'admin-password-1');
    const res = await fetch(`http://127.0.0.1:${free.port}/api/workspace`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);

    const outOfRange = await window.request('PUT', '/settings/rest', {
      body: { enabled: true, port: 80, host: '127.0.0.1' },
    });
    expect(outOfRange.status).toBe(400);
  });

  it('is read only without the right Einstellungen, also when called directly (403)', async () => {
    await server.addUser('erika', 'EDITOR');
    const window = new WindowClient(server);
    await window.login('erika', 'erika-password');
    expect((await window.request('GET', '/settings/rest')).body.data).toMatchObject({ editable: false });
    const res = await window.request('PUT', '/settings/rest', {
      body: { enabled: false, port: restPort, host: '127.0.0.1' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect(await server.app.settings.get('rest.enabled')).toBe(true);
  });

  it('shows a change made by the CLI (another process) within a second', async () => {
    const window = new WindowClient(server);
    await window.login();
    const events = window.events();
    await events.waitFor((e) => e.event === 'status');
    const { runCliAsync } = await import('../helpers/cli.js');
    const result = await runCliAsync(server.dataDir, ['settings', 'set', 'rest.enabled', 'false']);
    expect(result.code).toBe(0);
    const status = await events.waitFor(
      (e) => e.event === 'status' && (e.data as { rest: { running: boolean } }).rest.running === false,
      2_000,
    );
    expect(status.data).toMatchObject({ rest: { enabled: false } });
    events.close();
  });
});

describe('Window › REST API Monitor', () => {
  ownServerPerTest();

  it('streams each REST request and tool call within a second, with user and query, never a token', async () => {
    const window = new WindowClient(server);
    await window.login();
    const stream = window.events('/monitor/stream');
    await stream.waitFor((e) => e.event === 'entries');
    const token = await server.login();
    // REST refuses the unknown parameter (400); the monitor shows the request with its value masked.
    await server.request('GET', '/api/product?limit=5&token=secret-value', { token });
    const entries = await stream.waitFor(
      (e) => e.event === 'entries' && JSON.stringify(e.data).includes('/api/product'),
      1_000,
    );
    const entry = (entries.data as { path: string; user?: string; status: number; method: string }[]).find(
      (x) => x.path.startsWith('/api/product'),
    )!;
    expect(entry).toMatchObject({
      method: 'GET',
      status: 400,
      user: 'admin',
      path: '/api/product?limit=5&token=***',
    });
    expect(JSON.stringify(stream.received)).not.toContain('secret-value');
    stream.close();
  });
});

describe('Users', () => {
  ownServerPerTest();

  it('lists, adds, changes role and password, disables, enables and ends sessions; 403 without the right', async () => {
    const admin = new WindowClient(server);
    await admin.login();
    const added = await admin.request<{ id: number }>('POST', '/users', {
      body: { username: 'neu', role: 'VIEWER', password: 'neu-password-1' },
    });
    expect(added.status).toBe(201);
    const id = added.body.data!.id;
    expect((await admin.request('PUT', `/users/${id}/role`, { body: { role: 'EDITOR' } })).status).toBe(200);
    expect(
      (await admin.request('PUT', `/users/${id}/password`, { body: { password: 'neu-password-2' } })).status,
    ).toBe(200);
    const token = await server.login('neu', 'neu-password-2');
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
    expect((await admin.request('POST', `/users/${id}/logout`)).status).toBe(200);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(401);
    expect((await admin.request('POST', `/users/${id}/disable`)).status).toBe(200);
    expect(
      (
        await server.request('POST', '/api/auth/login', {
          body: { username: 'neu', password: 'neu-password-2' },
        })
      ).body.code,
    ).toBe('USER_DISABLED');
    expect((await admin.request('POST', `/users/${id}/enable`)).status).toBe(200);
    const list = await admin.request<
      { username: string; role: string; disabled: boolean; lastLoginAt: string | null }[]
    >('GET', '/users');
    expect(list.body.data!.find((u) => u.username === 'neu')).toMatchObject({
      role: 'EDITOR',
      disabled: false,
    });
    expect(list.body.data!.find((u) => u.username === 'neu')!.lastLoginAt).not.toBeNull();

    const adminId = list.body.data!.find((u) => u.username === 'admin') as unknown as { id: number };
    const demote = await admin.request('PUT', `/users/${adminId.id}/role`, { body: { role: 'VIEWER' } });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('LAST_ADMIN');

    const editor = new WindowClient(server);
    await editor.login('neu', 'neu-password-2');
    for (const [method, path] of [
      ['GET', '/users'],
      ['POST', `/users/${id}/disable`],
    ] as const) {
      const res = await editor.request(method, path);
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
  });
});

describe('ui.host and ui.port', () => {
  ownServerPerTest();

  it('move the window at once when changed with pim settings (another process), like rest.*', async () => {
    const first = await freePort();
    const moved = await startServer({ window: true, uiPort: first, restPort: await freePort() });
    try {
      expect(moved.windowUrl).toBe(`http://127.0.0.1:${first}`);
      const second = await freePort();
      const { runCliAsync } = await import('../helpers/cli.js');
      expect((await runCliAsync(moved.dataDir, ['settings', 'set', 'ui.port', String(second)])).code).toBe(0);
      const { pollUntil } = await import('../helpers/http.js');
      await pollUntil('the window answers on the new port', async () =>
        fetch(`http://127.0.0.1:${second}/ui/api/session`).then(
          (r) => r.status === 200,
          () => false,
        ),
      );
      await pollUntil('the old port is closed', async () =>
        fetch(`http://127.0.0.1:${first}/ui/api/session`).then(
          () => false,
          () => true,
        ),
      );
    } finally {
      await moved.stop();
    }
  });
});

describe('bad input to the window endpoints', () => {
  ownServerPerTest();

  it('answers wrong types, unknown fields and ids, and bad values with a clear error, writing nothing', async () => {
    const admin = new WindowClient(server);
    await admin.login();
    const cases: [string, string, unknown, number, string][] = [
      [
        'PUT',
        '/settings/rest',
        { enabled: 'yes', port: 9000, host: '127.0.0.1' },
        400,
        'enabled must be a boolean',
      ],
      ['PUT', '/settings/rest', { enabled: true, port: 9000 }, 400, 'host is required'],
      ['PUT', '/settings/rest', { enabled: true, port: 9000, host: 'not a host!' }, 400, 'rest.host must be'],
      [
        'PUT',
        '/settings/rest',
        { enabled: true, port: 9000, host: 'nohost.invalid' },
        400,
        'the host name is unknown',
      ],
      ['POST', '/users', { username: 'x', role: 'KING', password: 'p' }, 400, 'role must be'],
      [
        'POST',
        '/users',
        { username: 'x', role: 'VIEWER', password: 'p', admin: true },
        400,
        "Unknown field 'admin'",
      ],
      ['PUT', '/users/999999/role', { role: 'VIEWER' }, 404, 'User 999999 not found'],
      ['PUT', '/users/abc/role', { role: 'VIEWER' }, 400, 'Path parameter id must be an integer'],
      ['POST', '/workspaces/open', { workspaceId: 0 }, 400, 'workspaceId must be >= 1'],
      ['POST', '/workspaces/open', { workspaceId: 999 }, 404, 'Workspace 999 not found'],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await admin.request(method, path, { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toContain(message);
    }
    expect(await server.app.settings.get('rest.host')).toBe('127.0.0.1');
    const users = await server.app.users.list(server.app.ownerContext());
    expect(users.map((u) => u.username)).toEqual(['admin']);
  });
});

describe('robustness (found in review)', () => {
  ownServerPerTest();

  it('ends every stream of a session when the session ends, the monitor stream included', async () => {
    await server.addUser('vera', 'VIEWER');
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    const monitor = viewer.events('/monitor/stream');
    await monitor.waitFor((e) => e.event === 'entries');
    await new WindowClient(server).login();
    await monitor.done;
    expect(monitor.closed).toBe(true);
    const token = await server.login();
    await server.request('GET', '/api/workspace?after-the-end=1', { token });
    expect(JSON.stringify(monitor.received)).not.toContain('after-the-end');
  });

  it('saves REST settings while the window server itself has a pending move, without hanging', async () => {
    const window = new WindowClient(server);
    await window.login();
    // As if `pim settings set ui.port` had just been saved and not yet picked up by the poll.
    await server.app.settings.update(server.app.ownerContext(), { 'ui.port': await freePort() });
    const res = await window.request('PUT', '/settings/rest', {
      body: { enabled: true, port: restPort, host: '127.0.0.1' },
    });
    expect(res.status).toBe(200);
  });

  it('answers a body over the limit with 413 and a body that is not JSON with 415', async () => {
    const window = new WindowClient(server);
    const big = await window.request('POST', '/session/login', {
      body: { username: 'admin', password: 'x'.repeat(70_000) },
    });
    expect(big.status).toBe(413);
    const text = await fetch(`${server.windowUrl}/ui/api/session/login`, {
      method: 'POST',
      headers: { 'x-pim-window': '1', 'content-type': 'text/plain' },
      body: 'admin',
    });
    expect(text.status).toBe(415);
  });
});
