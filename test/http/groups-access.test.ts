import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { startServer } from '../helpers/server.js';
import { groupRest } from './groups.fixtures.js';

/** Rights on the group routes over REST: VIEWER, EDITOR, no token, no open workspace. */

const file = serverPerFile();

const { create, get } = groupRest(file);

describe('access', () => {
  it('lets a VIEWER read and refuses every change with 403', async () => {
    const group = await create('Visible');
    await file.server.addUser('groupviewer', 'VIEWER');
    const viewer = await file.server.login('groupviewer', 'groupviewer-password');
    for (const path of [
      '/api/group',
      '/api/group/tree',
      `/api/group/${group.id}`,
      `/api/group/${group.id}/products`,
    ]) {
      expect((await file.server.request('GET', path, { token: viewer })).status, path).toBe(200);
    }
    const writes: [string, string, unknown][] = [
      ['POST', '/api/group', { name: 'No' }],
      ['PUT', `/api/group/${group.id}`, { name: 'No' }],
      ['DELETE', `/api/group/${group.id}`, undefined],
      ['POST', `/api/group/${group.id}/move`, { parentId: null }],
      ['POST', `/api/group/${group.id}/products`, { productIds: [] }],
      ['DELETE', `/api/group/${group.id}/products/1`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await file.server.request(method, path, { token: viewer, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.success).toBe(false);
    }
    expect(await get(group.id)).toEqual(group);
  });

  it('lets an EDITOR change groups', async () => {
    await file.server.addUser('groupeditor', 'EDITOR');
    const editor = await file.server.login('groupeditor', 'groupeditor-password');
    const res = await file.server.request('POST', '/api/group', {
      token: editor,
      body: { name: 'By editor' },
    });
    expect(res.status).toBe(201);
  });

  it('answers 401 without a token', async () => {
    const res = await file.server.request('GET', '/api/group');
    expect(res.status).toBe(401);
  });

  it('answers 409 on every group path when no workspace is open', async () => {
    const bare = await startServer({ setup: 'no-workspace' });
    try {
      const bareToken = await bare.login();
      for (const [method, path] of [
        ['GET', '/api/group'],
        ['GET', '/api/group/tree'],
        ['POST', '/api/group'],
        ['POST', '/api/group/1/move'],
      ] as const) {
        const body = method === 'POST' ? { name: 'x' } : undefined;
        const res = await bare.request(method, path, { token: bareToken, body });
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body.code).toBe('NO_WORKSPACE_OPEN');
      }
    } finally {
      await bare.stop();
    }
  });
});
