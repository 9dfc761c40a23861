import { beforeEach, describe, expect, it } from 'vitest';
import { lazyServerPerFile } from '../helpers/file-server.js';
import type { TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/**
 * One application for the file: choices are kept per user, so each test that saves one does so as
 * an administrator of its own.
 */
const shared = lazyServerPerFile({ window: true });
let server: TestServer;
beforeEach(async () => {
  server = await shared();
});

const CHOICE = {
  columns: [
    { id: 'name', visible: true, width: 320 },
    { id: 'supplierPid', visible: true, width: 160 },
    { id: 'ean', visible: false, width: 140 },
  ],
  sort: { by: 'name', dir: 'desc' },
};

async function loggedIn(username = 'admin', password?: string): Promise<WindowClient> {
  const window = new WindowClient(server);
  await window.login(username, password);
  return window;
}

describe("the grid's remembered columns and sort", () => {
  it('are none until saved, then kept per user on the server', async () => {
    await server.addUser('ada', 'ADMIN');
    await server.addUser('vera', 'VIEWER');
    const admin = await loggedIn('ada', 'ada-password');
    expect((await admin.request('GET', '/preferences/grid')).body.data).toEqual({ value: null });
    const saved = await admin.request('PUT', '/preferences/grid', { body: CHOICE });
    expect(saved.status).toBe(200);
    expect((await admin.request('GET', '/preferences/grid')).body.data).toEqual({ value: CHOICE });
    // Another user (a VIEWER may keep choices too) has their own.
    await admin.request('POST', '/session/logout');
    const vera = await loggedIn('vera', 'vera-password');
    expect((await vera.request('GET', '/preferences/grid')).body.data).toEqual({ value: null });
    const own = { ...CHOICE, sort: { by: 'updated', dir: 'asc' } };
    expect((await vera.request('PUT', '/preferences/grid', { body: own })).status).toBe(200);
    await vera.request('POST', '/session/logout');
    const again = await loggedIn('ada', 'ada-password');
    expect((await again.request('GET', '/preferences/grid')).body.data).toEqual({ value: CHOICE });
  });

  it('refuses what is not a grid choice, naming the field, and keeps the saved one', async () => {
    await server.addUser('otto', 'ADMIN');
    const admin = await loggedIn('otto', 'otto-password');
    await admin.request('PUT', '/preferences/grid', { body: CHOICE });
    for (const body of [
      { ...CHOICE, sort: { by: 'price', dir: 'asc' } },
      { ...CHOICE, columns: [{ id: 'name', visible: true, width: 5 }] },
      { ...CHOICE, extra: 1 },
      { columns: CHOICE.columns },
    ]) {
      const refused = await admin.request('PUT', '/preferences/grid', { body });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
    }
    expect((await admin.request('GET', '/preferences/grid')).body.data).toEqual({ value: CHOICE });
    expect((await admin.request('GET', '/preferences/other')).status).toBe(404);
  });

  it('need a desktop session', async () => {
    const window = new WindowClient(server);
    expect((await window.request('GET', '/preferences/grid')).status).toBe(401);
    expect((await window.request('PUT', '/preferences/grid', { body: CHOICE })).status).toBe(401);
  });
});

describe('the catalogue event', () => {
  it('tells an open window that REST changed the catalogue, once per change', async () => {
    const window = await loggedIn();
    const events = window.events();
    try {
      // The stream starts with the counter as it is, so a change before it started is not missed.
      const first = await events.waitFor((e) => e.event === 'catalogue');
      const counter = (e: { data: unknown }) => (e.data as { counter: number }).counter;
      const token = await server.login();
      for (const supplierPid of ['LIVE-1', 'LIVE-2']) {
        const before = events.received.filter((e) => e.event === 'catalogue').length;
        const created = await server.request('POST', '/api/product', {
          token,
          body: { supplierPid, name: 'Live' },
        });
        expect(created.status).toBe(201);
        const list = await server.request<{ active: boolean; changeCounter: number }[]>(
          'GET',
          '/api/workspace',
          {
            token,
          },
        );
        const expected = list.body.data!.find((w) => w.active)!.changeCounter;
        expect(expected).toBeGreaterThan(counter(first));
        const now = await events.waitFor((e) => e.event === 'catalogue' && counter(e) === expected);
        expect(events.received.filter((e) => e.event === 'catalogue').length).toBe(before + 1);
        expect(now.data).toMatchObject({ workspaceId: (first.data as { workspaceId: number }).workspaceId });
      }
    } finally {
      events.close();
    }
  });
});
