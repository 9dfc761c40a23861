import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { serverPerFile } from '../helpers/file-server.js';

/**
 * Delta sync when writes commit out of the order of their instants (PostgreSQL runs writers side by
 * side): a write that waited for a lock commits after one that began later. Its stamps must then
 * follow the commit order, or a sync that read in between and stored its watermark never sees it.
 * A row lock held by another transaction makes the first write wait, as a slow writer would.
 */

const file = serverPerFile();
const api = <T>(method: string, path: string, body?: unknown) =>
  file.server.request<T>(method, path, { token: file.token, body });

interface Product {
  id: number;
  ean: string | null;
  updatedAt: string;
}

async function createProduct(supplierPid: string): Promise<number> {
  const res = await api<{ id: number }>('POST', '/api/product', { supplierPid });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

async function watermark(): Promise<string | null> {
  const res = await api<Array<{ active: boolean; changedAt: string | null }>>('GET', '/api/workspace');
  return res.body.data!.find((w) => w.active)!.changedAt;
}

describe.runIf(TEST_BACKEND === 'postgres')('delta sync with writes committing out of order', () => {
  it('stamps a write that committed after a later one at or after that one, so the next sync sees it', async () => {
    const first = await createProduct('ORDER-A');
    const second = await createProduct('ORDER-B');
    const workspace = file.server.app.workspaces.current()!;

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = workspace.db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM product WHERE id = ${first} FOR UPDATE`.execute(trx);
      locked();
      await released;
    });
    await isLocked;

    // Begins first, at T, and waits for the lock.
    const slow = api<Product>('PUT', `/api/product/${first}`, { ean: 'SLOW' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    file.server.clock.advance(1000);
    // Begins a second later and commits at once.
    const fast = await api<Product>('PUT', `/api/product/${second}`, { ean: 'FAST' });
    expect(fast.status, fast.text).toBe(200);

    // A sync runs now: it stores the watermark and reads what changed.
    const stored = await watermark();
    expect(stored).toBe(fast.body.data!.updatedAt);

    release();
    await holder;
    const slowAnswer = await slow;
    expect(slowAnswer.status, slowAnswer.text).toBe(200);
    // Committed after the fast one, it is stored with the fast one's instant, and says so itself.
    const stored2 = (await api<Product>('GET', `/api/product/${first}`)).body.data!;
    expect(stored2.ean).toBe('SLOW');
    expect(stored2.updatedAt).toBe(fast.body.data!.updatedAt);
    expect(slowAnswer.body.data!.updatedAt).toBe(stored2.updatedAt);

    // The next sync, from the stored watermark, sees the slow write.
    const next = await api<Product[]>('GET', `/api/product?all=true&updatedSince=${stored}`);
    expect(next.status, next.text).toBe(200);
    expect(next.body.data!.map((p) => [p.id, p.ean])).toContainEqual([first, 'SLOW']);
    expect(await watermark()).toBe(stored2.updatedAt);
  });
});

describe('the watermark in GET /api/workspace', () => {
  it('is the newest updatedAt or deletedAt committed', async () => {
    const id = await createProduct('MARK-1');
    const created = await api<Product>('GET', `/api/product/${id}`);
    expect(await watermark()).toBe(created.body.data!.updatedAt);
    file.server.clock.advance(5000);
    expect((await api('DELETE', `/api/product/${id}`)).status).toBe(200);
    const deleted = await api<Array<{ id: number; deletedAt: string }>>(
      'GET',
      `/api/product/deleted?since=${created.body.data!.updatedAt}`,
    );
    const stamp = deleted.body.data!.find((d) => d.id === id)!.deletedAt;
    expect(stamp > created.body.data!.updatedAt).toBe(true);
    expect(await watermark()).toBe(stamp);
  });
});
