import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import type { ApiResponse } from '../helpers/server.js';
import { pid, productRest, type Product } from './products.fixtures.js';

/**
 * Deletes racing with other writes of the same product. PostgreSQL runs transactions side by side
 * (also on one instance), so every race must end as one of its serial orders would: the loser
 * answers 404, never 500, and the deletion is recorded once. SQLite serialises writers; the same
 * tests hold there. Each test fires its racing requests for many products at once, in rounds, as
 * a race is lost only now and then.
 */

const file = serverPerFile();
const { call, create } = productRest(file);

const ROUNDS = 10;
const PER_ROUND = 4;

interface Deleted {
  id: number;
  supplierPid: string;
}
interface BulkResult {
  id: number | null;
  status: number;
  code?: string;
}

/** Runs `race` for PER_ROUND fresh items at once, ROUNDS times. */
async function rounds<T>(make: () => Promise<T>, race: (item: T) => Promise<void>): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    const items = await Promise.all(Array.from({ length: PER_ROUND }, make));
    await Promise.all(items.map(race));
  }
}

/** A status a racing request may answer: 200, or 404 for the product (the delete came first). */
function expectDoneOrGone(res: ApiResponse, what: string): void {
  expect([200, 404], `${what}: ${res.text}`).toContain(res.status);
  if (res.status === 404) expect(res.body.code, what).toBe('PRODUCT_NOT_FOUND');
}

async function deletedSince(since: string): Promise<Deleted[]> {
  const res = await call<Deleted[]>('GET', `/api/product/deleted?since=${encodeURIComponent(since)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

/** Each product is gone and recorded as deleted exactly once. */
async function expectDeletedOnce(since: string, products: readonly Product[]): Promise<void> {
  const deleted = await deletedSince(since);
  for (const p of products) {
    expect((await call('GET', `/api/product/${p.id}`)).status).toBe(404);
    const records = deleted
      .filter((d) => d.id === p.id)
      .map((d) => ({ id: d.id, supplierPid: d.supplierPid }));
    expect(records).toEqual([{ id: p.id, supplierPid: p.supplierPid }]);
  }
}

/** A main product and a variant of it. */
async function mainWithVariant(): Promise<{ main: Product; variant: Product }> {
  const main = await create();
  return { main, variant: await create({ masterProductId: main.id }) };
}

function bulkDelete(ids: readonly number[]): Promise<ApiResponse<BulkResult[]>> {
  return call<BulkResult[]>('POST', '/api/product/bulk-delete', { ids });
}

describe('deletes racing with deletes', () => {
  it('two DELETEs of one product: one 200, the other 404', async () => {
    const since = file.server.clock.now().toISOString();
    const products: Product[] = [];
    await rounds(create, async (p) => {
      products.push(p);
      const answers = await Promise.all([1, 2].map(() => call('DELETE', `/api/product/${p.id}`)));
      expect(answers.map((r) => r.status).sort(), answers.map((r) => r.text).join(' | ')).toEqual([200, 404]);
      expect(answers.find((r) => r.status === 404)!.body.code).toBe('PRODUCT_NOT_FOUND');
    });
    expect(products).toHaveLength(ROUNDS * PER_ROUND);
    await expectDeletedOnce(since, products);
  });

  it('a DELETE, a bulk delete and a group delete with its products: exactly one deletes it', async () => {
    const since = file.server.clock.now().toISOString();
    const products: Product[] = [];
    const make = async () => {
      const group = await call<{ id: number }>('POST', '/api/group', { name: pid('G') });
      const p = await create();
      expect(
        (await call('POST', `/api/group/${group.body.data!.id}/products`, { productIds: [p.id] })).status,
      ).toBe(200);
      return { p, groupId: group.body.data!.id };
    };
    await rounds(make, async ({ p, groupId }) => {
      products.push(p);
      const [single, bulk, group] = await Promise.all([
        call('DELETE', `/api/product/${p.id}`),
        bulkDelete([p.id]),
        call('DELETE', `/api/group/${groupId}?deleteProducts=true`),
      ]);
      expectDoneOrGone(single, 'DELETE');
      expect(bulk.status, bulk.text).toBe(200);
      expect([200, 404]).toContain(bulk.body.data![0]!.status);
      expect(group.status, group.text).toBe(200);
      // The group delete says nothing per product; the other two may both have come too late.
      expect([single.status, bulk.body.data![0]!.status].filter((s) => s === 200).length).toBeLessThanOrEqual(
        1,
      );
    });
    await expectDeletedOnce(since, products);
  });

  it('a main product and its variant deleted at once: both go, each recorded once', async () => {
    const since = file.server.clock.now().toISOString();
    const products: Product[] = [];
    await rounds(mainWithVariant, async ({ main, variant }) => {
      products.push(main, variant);
      const [mainAnswer, variantAnswer] = await Promise.all([
        call('DELETE', `/api/product/${main.id}`),
        call('DELETE', `/api/product/${variant.id}`),
      ]);
      expect(mainAnswer.status, mainAnswer.text).toBe(200);
      expectDoneOrGone(variantAnswer, 'DELETE of the variant');
    });
    await expectDeletedOnce(since, products);
  });

  it('two bulk deletes of the same products in opposite orders: no deadlock, each product deleted once', async () => {
    for (let round = 0; round < 3; round++) {
      const supplierPids = Array.from({ length: 200 }, () => pid('BD'));
      const made = await call<BulkResult[]>(
        'POST',
        '/api/product/bulk',
        supplierPids.map((supplierPid) => ({ supplierPid })),
      );
      expect(made.status, made.text).toBe(200);
      const answers = await Promise.all([
        call<BulkResult[]>('POST', '/api/product/bulk-delete', { supplierPids }),
        call<BulkResult[]>('POST', '/api/product/bulk-delete', { supplierPids: [...supplierPids].reverse() }),
      ]);
      for (const res of answers) expect(res.status, res.text).toBe(200);
      const [forward, backward] = answers.map((res) => res.body.data!);
      supplierPids.forEach((_, i) => {
        const statuses = [forward![i]!.status, backward![supplierPids.length - 1 - i]!.status].sort();
        expect(statuses).toEqual([200, 404]);
      });
    }
  });

  it('a bulk upsert against a bulk delete of the same products in the opposite order: no deadlock', async () => {
    for (let round = 0; round < 6; round++) {
      const supplierPids = Array.from({ length: 200 }, () => pid('BU'));
      const documents = (ean: string) => supplierPids.map((supplierPid) => ({ supplierPid, ean }));
      expect((await call('POST', '/api/product/bulk', documents('first'))).status).toBe(200);
      // One of the two names the products from the newest, the other from the oldest.
      const newestFirst = round % 2 === 0;
      const [upsert, remove] = await Promise.all([
        call<BulkResult[]>(
          'POST',
          '/api/product/bulk',
          newestFirst ? documents('second') : documents('second').reverse(),
        ),
        call<BulkResult[]>('POST', '/api/product/bulk-delete', {
          supplierPids: newestFirst ? [...supplierPids].reverse() : supplierPids,
        }),
      ]);
      expect(upsert.status, upsert.text).toBe(200);
      expect(remove.status, remove.text).toBe(200);
      // Either order is a serial one: deleted then created again (201), or updated then deleted.
      const upserted = new Set(upsert.body.data!.map((r) => r.status));
      expect(upserted.size).toBe(1);
      expect(new Set(remove.body.data!.map((r) => r.status))).toEqual(new Set([200]));
      const left = await call<Product[]>(
        'GET',
        `/api/product?supplierPid=${encodeURIComponent(supplierPids[0]!)}`,
      );
      expect(left.body.data).toHaveLength(upserted.has(201) ? 1 : 0);
    }
  });

  it('a bulk upsert of variants against a bulk delete of their main products: no deadlock', async () => {
    for (let round = 0; round < 4; round++) {
      const mains = Array.from({ length: 100 }, () => pid('BM'));
      const variants = mains.map((main) => ({ supplierPid: pid('BV'), masterSupplierPid: main }));
      const made = await call('POST', '/api/product/bulk', [
        ...mains.map((supplierPid) => ({ supplierPid })),
        ...variants,
      ]);
      expect(made.status, made.text).toBe(200);
      // Updating a variant touches its main product too: variants first, unless locked in id order.
      const [upsert, remove] = await Promise.all([
        call<BulkResult[]>(
          'POST',
          '/api/product/bulk',
          variants.map((v) => ({ ...v, ean: `E${round}` })),
        ),
        call<BulkResult[]>('POST', '/api/product/bulk-delete', { supplierPids: mains }),
      ]);
      expect(upsert.status, upsert.text).toBe(200);
      expect(remove.status, remove.text).toBe(200);
      expect(new Set(remove.body.data!.map((r) => r.status))).toEqual(new Set([200]));
      // Updated before the delete (200), or their main products were gone already (404).
      const upserted = new Set(upsert.body.data!.map((r) => r.status));
      expect(upserted.size, upsert.text).toBe(1);
      expect([200, 404]).toContain([...upserted][0]);
    }
  });
});

describe('writes racing with the delete of their product', () => {
  it('texts, features and fields: 200 or 404 PRODUCT_NOT_FOUND, never 500, and the product is gone', async () => {
    const since = file.server.clock.now().toISOString();
    const products: Product[] = [];
    await rounds(create, async (p) => {
      products.push(p);
      const base = `/api/product/${p.id}`;
      const [remove, ...writes] = await Promise.all([
        call('DELETE', base),
        call('PUT', `${base}/texts/short/eng`, { value: 'short' }),
        call('PUT', `${base}/texts/long/deu`, { value: 'long' }),
        call('PUT', `${base}/features/F1`, {
          funit: 'mm',
          values: [{ lang: 'deu', value: '1' }],
        }),
        call('PUT', `${base}/features/F2/eng`, { value: 'two' }),
        call('PUT', base, { name: 'renamed', ean: '4006381333931' }),
      ]);
      expect(remove.status, remove.text).toBe(200);
      writes.forEach((w, i) => expectDoneOrGone(w, `write ${i}`));
    });
    await expectDeletedOnce(since, products);
  });

  it('writes to a variant while its main product is deleted: 200 or 404, never 500', async () => {
    const since = file.server.clock.now().toISOString();
    const products: Product[] = [];
    await rounds(mainWithVariant, async ({ main, variant }) => {
      products.push(main, variant);
      const base = `/api/product/${variant.id}`;
      const [remove, ...writes] = await Promise.all([
        call('DELETE', `/api/product/${main.id}`),
        call('PUT', `${base}/texts/short/eng`, { value: 'short' }),
        call('PUT', `${base}/features/F3/deu`, { value: 'drei' }),
        call('PUT', base, { name: 'renamed' }),
      ]);
      expect(remove.status, remove.text).toBe(200);
      writes.forEach((w, i) => expectDoneOrGone(w, `write ${i}`));
    });
    await expectDeletedOnce(since, products);
  });
});
