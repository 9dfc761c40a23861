import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { groupRest } from './groups.fixtures.js';

/**
 * Group memberships changed by requests racing with each other. PostgreSQL runs transactions side
 * by side (also on one instance), so each race must end as one of its serial orders would: never
 * a 500, never a confirmed change that is lost. SQLite serialises writers; the same tests hold
 * there. Each round races many products at once, as a race is lost only now and then.
 */

const file = serverPerFile();
const { api, create } = groupRest(file);

const ROUNDS = 10;
const PER_ROUND = 6;

let seq = 0;
async function product(): Promise<number> {
  const res = await api<{ id: number }>('POST', '/api/product', { supplierPid: `GR-${++seq}-${Date.now()}` });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

async function members(groupId: number): Promise<number[]> {
  const res = await api<Array<{ id: number }>>('GET', `/api/group/${groupId}/products`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!.map((p) => p.id);
}

async function assign(groupId: number, productIds: number[]) {
  return api('POST', `/api/group/${groupId}/products`, { productIds });
}

describe('group memberships under races', () => {
  it('assigning to a group while it is deleted: 200 or 404 GROUP_NOT_FOUND, never 500', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const pairs = await Promise.all(
        Array.from({ length: PER_ROUND }, async (_, i) => ({
          group: await create(`Doomed ${round}.${i}`),
          productId: await product(),
        })),
      );
      await Promise.all(
        pairs.map(async ({ group, productId }) => {
          const [remove, assigned] = await Promise.all([
            api('DELETE', `/api/group/${group.id}`),
            assign(group.id, [productId]),
          ]);
          expect(remove.status, remove.text).toBe(200);
          expect([200, 404], assigned.text).toContain(assigned.status);
          if (assigned.status === 404) expect(assigned.body.code).toBe('GROUP_NOT_FOUND');
          expect((await api('GET', `/api/group/${group.id}`)).status).toBe(404);
          expect((await api('GET', `/api/product/${productId}`)).status).toBe(200);
        }),
      );
    }
  });

  it('removing a product from G1 while it is assigned to G2: it ends in G2, the removal 200 or 404', async () => {
    const g1 = await create('From');
    const g2 = await create('To');
    for (let round = 0; round < ROUNDS; round++) {
      const ids = await Promise.all(Array.from({ length: PER_ROUND }, product));
      expect((await assign(g1.id, ids)).status).toBe(200);
      await Promise.all(
        ids.map(async (id) => {
          const [assigned, removed] = await Promise.all([
            assign(g2.id, [id]),
            api('DELETE', `/api/group/${g1.id}/products/${id}`),
          ]);
          expect(assigned.status, assigned.text).toBe(200);
          // Removed first, then assigned (200); or assigned first, and then it was no longer in G1.
          expect([200, 404], removed.text).toContain(removed.status);
          if (removed.status === 404) expect(removed.body.code).toBe('PRODUCT_NOT_IN_GROUP');
        }),
      );
      const inG2 = await members(g2.id);
      for (const id of ids) expect(inG2, `product ${id}`).toContain(id);
      expect(await members(g1.id)).toEqual([]);
    }
  });

  it('deleting a group with its products while they move to another group: nothing half-done', async () => {
    const target = await create('Target');
    for (let round = 0; round < ROUNDS; round++) {
      const doomed = await create(`Doomed with products ${round}`);
      const ids = await Promise.all(Array.from({ length: PER_ROUND }, product));
      expect((await assign(doomed.id, ids)).status).toBe(200);
      const answers = await Promise.all([
        api('DELETE', `/api/group/${doomed.id}?deleteProducts=true`),
        ...ids.map((id) => assign(target.id, [id])),
      ]);
      expect(answers[0]!.status, answers[0]!.text).toBe(200);
      const kept = new Set(await members(target.id));
      ids.forEach((id, i) => {
        const moved = answers[i + 1]!;
        // Moved first (then it left the doomed group and stays), or deleted first (404 for it).
        expect([200, 404], moved.text).toContain(moved.status);
        if (moved.status === 404) expect(moved.body.code).toBe('PRODUCT_NOT_FOUND');
        expect(kept.has(id), `product ${id}`).toBe(moved.status === 200);
      });
    }
  });
});
