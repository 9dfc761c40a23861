import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpeningDto } from '../../src/window/opening-api.types.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

/**
 * GET /ui/api/opening: the window's first screen in one request. Each part must be exactly what
 * its own endpoint answers (the window takes the parts instead of asking those endpoints).
 */

let server: TestServer;
let window: WindowClient;

async function opening(query: string, client = window): Promise<OpeningDto> {
  const res = await client.request<OpeningDto>('GET', `/opening${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!;
}

/** What an endpoint answers on its own: the envelope, as a part carries it. */
async function own(path: string): Promise<unknown> {
  return (await window.request('GET', path)).body;
}

beforeAll(async () => {
  server = await startServer({ window: true });
  const token = await server.login();
  const group = await server.request('POST', '/api/group', { token, body: { name: 'Tools' } });
  expect(group.status, group.text).toBe(201);
  for (const [supplierPid, name] of [
    ['OPEN-1', 'Chisel'],
    ['OPEN-2', 'Anvil'],
    ['OPEN-3', 'Bolt'],
  ]) {
    const created = await server.request('POST', '/api/product', {
      token,
      body: { supplierPid, name, language: 'eng' },
    });
    expect(created.status, created.text).toBe(201);
  }
  window = new WindowClient(server);
  await window.login();
  const saved = await window.request('PUT', '/preferences/grid', {
    body: { columns: [{ id: 'name', visible: true, width: 200 }], sort: { by: 'name', dir: 'desc' } },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => server.stop());

describe('the opening', () => {
  it('holds only the session part without a desktop session', async () => {
    const stranger = new WindowClient(server);
    expect(await opening('?grid=main%3Dfalse', stranger)).toEqual({
      session: { success: true, data: { user: null } },
    });
  });

  it("answers each part as its endpoint does, the grid sorted by the user's saved sort", async () => {
    const answer = await opening('?grid=main%3Dfalse&block=2');
    const grid = 'main=false&sort=name&dir=desc';
    expect(answer).toEqual({
      session: await own('/session'),
      status: await own('/status'),
      preferences: await own('/preferences/grid'),
      catalogue: expect.objectContaining({ counter: expect.any(Number) }),
      grid: {
        sort: { by: 'name', dir: 'desc' },
        count: await own(`/products/count?${grid}`),
        rows: await own(`/products/rows?${grid}&limit=2&at=0`),
      },
      groups: await own('/groups/children'),
    });
    const rows = (answer.grid!.rows.data as { rows: { supplierPid: string }[] }).rows;
    expect(rows.map((r) => r.supplierPid)).toEqual(['OPEN-1', 'OPEN-3']);
    expect(answer.grid!.count.data).toEqual({ count: 3 });
  });

  it("takes the address's sort over the saved one, and the first block of 100 by default", async () => {
    const answer = await opening(`?grid=${encodeURIComponent('sort=id&dir=desc&q=open&main=false')}`);
    const grid = 'sort=id&dir=desc&q=open&main=false';
    expect(answer.grid).toEqual({
      sort: { by: 'id', dir: 'desc' },
      count: await own(`/products/count?${grid}`),
      rows: await own(`/products/rows?${grid}&limit=100&at=0`),
    });
    // Without grid parameters (another view than the catalogue), no catalogue parts.
    const bare = await opening('');
    expect(bare.grid).toBeUndefined();
    expect(bare.groups).toBeUndefined();
    expect(bare.status).toEqual(await own('/status'));
  });

  it("reads the change counter the push channel starts with, and a change's new one after it", async () => {
    const events = window.events();
    try {
      const first = await events.waitFor((e) => e.event === 'catalogue');
      expect((await opening('?grid=main%3Dfalse')).catalogue).toEqual(first.data);
      const token = await server.login();
      const created = await server.request('POST', '/api/product', {
        token,
        body: { supplierPid: 'OPEN-4' },
      });
      expect(created.status).toBe(201);
      const changed = await events.waitFor(
        (e) =>
          e.event === 'catalogue' &&
          (e.data as { counter: number }).counter !== (first.data as { counter: number }).counter,
      );
      expect((await opening('?grid=main%3Dfalse')).catalogue).toEqual(changed.data);
    } finally {
      events.close();
    }
  });

  it('passes a refused part on as refused, and refuses a malformed opening', async () => {
    const answer = await opening(`?grid=${encodeURIComponent('main=maybe&sort=price')}`);
    expect(answer.grid!.count).toEqual(await own('/products/count?main=maybe&sort=price'));
    expect(answer.grid!.count).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(answer.grid!.rows).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    for (const query of ['?block=0', '?block=501', '?grid=x&other=1', `?grid=${'a'.repeat(4001)}`]) {
      const refused = await window.request('GET', `/opening${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
    }
  });
});
