import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer({ window: true, setup: 'no-workspace' });
});
afterEach(async () => server.stop());

describe('File › New workspace in the window', () => {
  it('creates a workspace in a folder of its own and opens it for the whole application', async () => {
    const window = new WindowClient(server);
    await window.login();
    expect((await window.request<{ workspace: unknown }>('GET', '/status')).body.data!.workspace).toBeNull();
    const created = await window.request<{ id: number; name: string; rootpath: string }>(
      'POST',
      '/workspaces',
      {
        body: { name: 'Katalog 2027', language: 'eng' },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.data!.rootpath.startsWith(server.dataDir)).toBe(true);
    expect((await window.request<{ workspace: unknown }>('GET', '/status')).body.data!.workspace).toEqual({
      id: created.body.data!.id,
      name: 'Katalog 2027',
    });
    // REST sees it open, with its default language.
    const token = await server.login();
    const list = await server.request<{ name: string; active: boolean }[]>('GET', '/api/workspace', {
      token,
    });
    expect(list.body.data!.find((w) => w.active)?.name).toBe('Katalog 2027');
  });

  it('refuses a taken name, a bad language and a VIEWER, creating nothing', async () => {
    const window = new WindowClient(server);
    await window.login();
    expect((await window.request('POST', '/workspaces', { body: { name: 'Eins' } })).status).toBe(201);
    const taken = await window.request('POST', '/workspaces', { body: { name: 'eins' } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('WORKSPACE_EXISTS');
    const language = await window.request('POST', '/workspaces', { body: { name: 'Zwei', language: 'xx1' } });
    expect(language.status).toBe(400);
    // One desktop session per instance: the viewer's login ends the admin's.
    await server.addUser('vera', 'VIEWER');
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    expect((await viewer.request('POST', '/workspaces', { body: { name: 'Drei' } })).status).toBe(403);
    // What exists, as REST tells it.
    const token = await server.login();
    const list = await server.request<{ name: string }[]>('GET', '/api/workspace', { token });
    expect(list.body.data!.map((w) => w.name)).toEqual(['Eins']);
  });
});
