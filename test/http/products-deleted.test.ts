import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

/** GET /api/product/deleted: deletions for delta sync (issue 12), kept 30 days. */

interface Product {
  id: number;
  supplierPid: string;
  name: string;
  updatedAt: string;
  masterProductId: number | null;
}
interface Deleted {
  id: number;
  supplierPid: string;
  deletedAt: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = () => `D-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });
const create = async (body: Record<string, unknown> = {}): Promise<Product> => {
  const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
};
const tick = () => {
  server.clock.advance(60_000);
  return server.clock.now().toISOString();
};
const deletedSince = async (since: string) => {
  const res = await call<Deleted[]>('GET', `/api/product/deleted?since=${encodeURIComponent(since)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
};

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('GET /api/product/deleted', () => {
  it('lists a deleted main product with its variants, and a deleted variant alone, at the instant of the delete', async () => {
    const since = tick();
    const main = await create();
    const variants = [await create({ masterProductId: main.id }), await create({ masterProductId: main.id })];
    const other = await create();
    const lone = await create({ masterProductId: other.id });
    const first = tick();
    expect((await call('DELETE', `/api/product/${lone.id}`)).status).toBe(200);
    const second = tick();
    expect((await call('DELETE', `/api/product/${main.id}`)).status).toBe(200);
    expect(await deletedSince(since)).toEqual([
      { id: lone.id, supplierPid: lone.supplierPid, deletedAt: first },
      ...[main, ...variants].map((p) => ({ id: p.id, supplierPid: p.supplierPid, deletedAt: second })),
    ]);
    // Inclusive, like updatedSince; later instants leave earlier deletions out.
    expect((await deletedSince(second)).map((d) => d.id)).toEqual([main.id, ...variants.map((v) => v.id)]);
    expect(await deletedSince(tick())).toEqual([]);
    // The main product of the deleted variant is still there.
    expect((await call('GET', `/api/product/${other.id}`)).status).toBe(200);
  });

  it('lists the products a group delete took with it, and nothing for a refused delete or an ungrouping', async () => {
    const since = tick();
    const group = (await call<{ id: number }>('POST', '/api/group', { name: 'Gone' })).body.data!;
    const keep = (await call<{ id: number }>('POST', '/api/group', { name: 'Kept' })).body.data!;
    const inside = await create();
    const variant = await create({ masterProductId: inside.id });
    const ungrouped = await create();
    await call('POST', `/api/group/${group.id}/products`, { productIds: [inside.id] });
    await call('POST', `/api/group/${keep.id}/products`, { productIds: [ungrouped.id] });
    expect((await call('DELETE', `/api/product/999999`)).status).toBe(404);
    expect((await call('DELETE', `/api/group/${keep.id}`)).status).toBe(200);
    const at = tick();
    expect((await call('DELETE', `/api/group/${group.id}?deleteProducts=true`)).status).toBe(200);
    expect(await deletedSince(since)).toEqual([
      { id: inside.id, supplierPid: inside.supplierPid, deletedAt: at },
      { id: variant.id, supplierPid: variant.supplierPid, deletedAt: at },
    ]);
  });

  it('refuses a since older than 30 days and a missing or malformed since', async () => {
    const now = server.clock.now().getTime();
    const old = new Date(now - 30 * 24 * 60 * 60 * 1000 - 1000).toISOString();
    const expired = await call('GET', `/api/product/deleted?since=${old}`);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({
      success: false,
      error: `since '${old}' is older than the 30 days deletions are kept: sync in full instead`,
      code: 'DELETIONS_EXPIRED',
    });
    const edge = new Date(now - 30 * 24 * 60 * 60 * 1000).toISOString();
    expect((await call('GET', `/api/product/deleted?since=${edge}`)).status).toBe(200);
    const missing = await call('GET', '/api/product/deleted');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Query parameter since is required');
    const malformed = await call('GET', '/api/product/deleted?since=yesterday');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^since 'yesterday' is not an ISO 8601 date/);
    // The path has GET only, although PUT /api/product/{id} matches it too.
    const put = await call('PUT', '/api/product/deleted', {});
    expect(put.status).toBe(405);
    expect(put.body.error).toBe(
      'Method PUT is not allowed on /api/product/deleted; allowed: GET, HEAD, OPTIONS',
    );
  });

  it('lets a client mirror the catalogue with updatedSince and deleted, whatever happened between syncs', async () => {
    type Op =
      | { kind: 'create'; variantOf?: number }
      | { kind: 'rename'; pick: number }
      | { kind: 'delete'; pick: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('create' as const),
        variantOf: fc.option(fc.nat(50), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(50) }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(50) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArb, { maxLength: 8 }), { minLength: 1, maxLength: 5 }),
        async (rounds) => {
          const mirror = new Map<number, Product>();
          const all = async () => (await call<Product[]>('GET', '/api/product?all=true')).body.data!;
          for (const p of await all()) mirror.set(p.id, p);
          let lastSync = server.clock.now().toISOString();
          for (const ops of rounds) {
            tick();
            for (const op of ops) {
              const ids = (await all()).map((p) => p.id);
              const mains = (await all()).filter((p) => p.masterProductId === null).map((p) => p.id);
              if (op.kind === 'create') {
                const master =
                  op.variantOf === undefined || mains.length === 0
                    ? undefined
                    : mains[op.variantOf % mains.length];
                await create(master === undefined ? {} : { masterProductId: master });
              } else if (ids.length > 0) {
                const id = ids[op.pick % ids.length]!;
                if (op.kind === 'rename') await call('PUT', `/api/product/${id}`, { name: `n${seq++}` });
                else await call('DELETE', `/api/product/${id}`);
              }
            }
            // The sync: changed products, then deletions, both since the last sync (inclusive).
            const syncAt = server.clock.now().toISOString();
            const changed = (await call<Product[]>('GET', `/api/product?all=true&updatedSince=${lastSync}`))
              .body.data!;
            for (const p of changed) mirror.set(p.id, p);
            for (const d of await deletedSince(lastSync)) mirror.delete(d.id);
            lastSync = syncAt;
            tick();
            expect([...mirror.values()].sort((a, b) => a.id - b.id)).toEqual(await all());
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
