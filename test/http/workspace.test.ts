import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceDto } from '../../src/domain/workspaces/workspace.service.js';
import { TEST_BACKEND, removeWorkspaceDatabase, workspaceDatabaseExists } from '../helpers/backend.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('workspaces over REST', () => {
  let server: TestServer;
  let token: string;
  let test: WorkspaceDto;
  let other: WorkspaceDto;
  let third: WorkspaceDto;
  beforeEach(async () => {
    server = await startServer();
    token = await server.login();
    test = (await server.app.workspaces.list(server.app.ownerContext()))[0]!;
    other = await server.app.workspaces.create(server.app.ownerContext(), { name: 'Other', language: 'eng' });
    third = await server.app.workspaces.create(server.app.ownerContext(), { name: 'Third' });
  });
  afterEach(() => server.stop());

  const list = async () => {
    const res = await server.request<WorkspaceDto[]>('GET', '/api/workspace', { token });
    expect(res.status).toBe(200);
    return res.body.data!;
  };
  const open = (body: unknown) =>
    server.request<WorkspaceDto>('POST', '/api/workspace/open', { token, body });
  const activeNames = async () => (await list()).filter((w) => w.active).map((w) => w.name);

  it('opens a workspace once when several opens of it arrive at the same moment', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => open({ workspaceId: other.id })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(refused.body.code).toBe('WORKSPACE_ALREADY_LOADED');
    }
    expect(await activeNames()).toEqual(['Other']);
  });

  it('GET /api/workspace lists every workspace as WorkspaceDto, ordered by id, the open one active', async () => {
    const res = await server.request('GET', '/api/workspace', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: [
        {
          id: test.id,
          name: 'Test',
          rootpath: test.rootpath,
          active: true,
          changeCounter: 0,
          changedAt: null,
        },
        {
          id: other.id,
          name: 'Other',
          rootpath: other.rootpath,
          active: false,
          changeCounter: null,
          changedAt: null,
        },
        {
          id: third.id,
          name: 'Third',
          rootpath: third.rootpath,
          active: false,
          changeCounter: null,
          changedAt: null,
        },
      ],
    });
  });

  it('opens a workspace by id and by name; the active flag moves with it', async () => {
    const byId = await open({ workspaceId: other.id });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      success: true,
      data: {
        id: other.id,
        name: 'Other',
        rootpath: other.rootpath,
        active: true,
        changeCounter: 0,
        changedAt: null,
      },
    });
    expect(await activeNames()).toEqual(['Other']);

    const byName = await open({ workspaceName: 'Third' });
    expect(byName.status).toBe(200);
    expect(byName.body.data).toEqual({
      id: third.id,
      name: 'Third',
      rootpath: third.rootpath,
      active: true,
      changeCounter: 0,
      changedAt: null,
    });
    expect(await activeNames()).toEqual(['Third']);

    // Back to one opened before in this run.
    expect((await open({ workspaceId: test.id, workspaceName: 'Test' })).status).toBe(200);
    expect(await activeNames()).toEqual(['Test']);
  });

  it('the open workspace is the same for every token', async () => {
    await server.addUser('editor', 'EDITOR', 'editor-password');
    const editorToken = await server.login('editor', 'editor-password');
    expect((await open({ workspaceName: 'Other' })).status).toBe(200);
    const seen = await server.request<WorkspaceDto[]>('GET', '/api/workspace', { token: editorToken });
    expect(seen.body.data!.filter((w) => w.active).map((w) => w.name)).toEqual(['Other']);
  });

  it('answers 400 "already loaded" for the open workspace, by id or by name', async () => {
    for (const body of [{ workspaceId: test.id }, { workspaceName: 'Test' }]) {
      const res = await open(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false });
      expect(res.body.error).toMatch(/already loaded/);
    }
    expect(await activeNames()).toEqual(['Test']);
  });

  it('answers 400 when workspaceId and workspaceName name different workspaces, or neither is given', async () => {
    for (const body of [{ workspaceId: other.id, workspaceName: 'Third' }, {}]) {
      const res = await open(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
    }
    expect(await activeNames()).toEqual(['Test']);
  });

  it('answers 400 for mistyped or unknown fields, opening nothing', async () => {
    for (const body of [
      { workspaceId: String(other.id) },
      { workspaceId: 0 },
      { workspaceId: 1.5 },
      { workspaceName: '' },
      { workspaceName: 7 },
      { workspaceId: other.id, force: true },
    ]) {
      const res = await open(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
    }
    expect(await activeNames()).toEqual(['Test']);
  });

  it('answers 404 for an unknown id or name, and 404 when one of two names an unknown workspace', async () => {
    for (const body of [
      { workspaceId: 999 },
      { workspaceName: 'Nowhere' },
      { workspaceId: other.id, workspaceName: 'Nowhere' },
    ]) {
      const res = await open(body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
    }
    expect(await activeNames()).toEqual(['Test']);
  });

  it('answers 400 for a missing folder and keeps the open workspace open', async () => {
    rmSync(other.rootpath, { recursive: true, force: true });
    const res = await open({ workspaceId: other.id });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false });
    expect(res.body.error).toMatch(/folder/i);
    expect(await activeNames()).toEqual(['Test']);
  });

  it('answers 400 for a missing database (file or schema), does not recreate it, and keeps the open workspace open', async () => {
    await removeWorkspaceDatabase(server.app, third);
    const res = await open({ workspaceName: 'Third' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/database/i);
    expect(res.body.code).toBe('WORKSPACE_DATABASE_MISSING');
    expect(await activeNames()).toEqual(['Test']);
    expect(await workspaceDatabaseExists(server.app, third)).toBe(false);
  });

  it.skipIf(TEST_BACKEND !== 'sqlite')(
    'answers 400 for a read-only database file or folder, leaves its mode, and opens it once writable',
    async () => {
      const file = join(other.rootpath, 'workspace.sqlite');
      for (const [path, readOnly, writable] of [
        [file, 0o400, 0o600],
        [other.rootpath, 0o500, 0o700],
      ] as const) {
        chmodSync(path, readOnly);
        try {
          const res = await open({ workspaceId: other.id });
          expect(res.status, res.text).toBe(400);
          expect(res.body).toEqual({
            success: false,
            error: expect.any(String),
            code: 'WORKSPACE_DATABASE_READ_ONLY',
          });
          expect(res.body.error).toMatch(
            /^The database of workspace 'Other' is read-only \(.*0[45]00\); .*writable/,
          );
          expect(statSync(path).mode & 0o777).toBe(readOnly);
          expect(await activeNames()).toEqual(['Test']);
        } finally {
          chmodSync(path, writable);
        }
      }
      expect((await open({ workspaceId: other.id })).status).toBe(200);
      expect(await activeNames()).toEqual(['Other']);
    },
  );

  it.skipIf(TEST_BACKEND !== 'sqlite')(
    'answers 400 for a SQLite database of something else and leaves its folder byte for byte as it was',
    async () => {
      const file = join(other.rootpath, 'workspace.sqlite');
      rmSync(file);
      const foreign = new Database(file);
      foreign.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)');
      foreign.prepare('INSERT INTO orders (total) VALUES (?)').run(12.5);
      foreign.close();
      const folder = () =>
        readdirSync(other.rootpath)
          .sort()
          .map((name) => [
            name,
            createHash('sha256')
              .update(readFileSync(join(other.rootpath, name)))
              .digest('hex'),
          ]);
      const before = folder();
      const res = await open({ workspaceId: other.id });
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('WORKSPACE_DATABASE_FOREIGN');
      expect(folder()).toEqual(before);
      expect(await activeNames()).toEqual(['Test']);
    },
  );

  it('answers 403 to a VIEWER opening a workspace, who may still list them', async () => {
    await server.addUser('viewer', 'VIEWER', 'viewer-password');
    const viewer = await server.login('viewer', 'viewer-password');
    const res = await server.request('POST', '/api/workspace/open', {
      token: viewer,
      body: { workspaceId: other.id },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
    expect((await server.request('GET', '/api/workspace', { token: viewer })).status).toBe(200);
    expect(await activeNames()).toEqual(['Test']);
  });

  it('lets an EDITOR open a workspace', async () => {
    await server.addUser('editor', 'EDITOR', 'editor-password');
    const editor = await server.login('editor', 'editor-password');
    const res = await server.request('POST', '/api/workspace/open', {
      token: editor,
      body: { workspaceName: 'Other' },
    });
    expect(res.status).toBe(200);
  });
});
