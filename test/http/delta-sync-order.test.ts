import { sql, type Kysely } from 'kysely';
import type { WorkspaceDatabase } from '../../src/db/workspace.schema.js';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { serverPerFile } from '../helpers/file-server.js';
import { pollUntil } from '../helpers/http.js';

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

interface Holder {
  /** The backend process id of the holding transaction, once it holds its locks. */
  locked: Promise<number>;
  release: () => void;
  done: Promise<void>;
}

/** A transaction of the test's own on the workspace database: `work` locks, then finishes once released. */
function holding(work: (trx: Kysely<WorkspaceDatabase>, step: 'lock' | 'finish') => Promise<void>): Holder {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markLocked!: (pid: number) => void;
  const locked = new Promise<number>((resolve) => (markLocked = resolve));
  const workspace = file.server.app.workspaces.current()!;
  const done = workspace.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
    await work(trx, 'lock');
    markLocked(rows[0]!.pid);
    await released;
    await work(trx, 'finish');
  });
  return { locked, release, done };
}

/** Waits until another backend waits for a lock the holder's transaction holds, or `done()`. */
async function blockedBy(holder: Holder, done = () => false): Promise<void> {
  const pid = await holder.locked;
  await pollUntil(`a backend waits for backend ${pid}`, async () => {
    if (done()) return true;
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity
      WHERE ${pid} = ANY(pg_blocking_pids(pid))`.execute(file.server.app.stores.shared);
    return Number(rows[0]!.n) > 0;
  });
}

async function deadlocks(): Promise<number> {
  const result = await sql<{ n: string }>`
    SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(
    file.server.app.stores.shared,
  );
  return Number(result.rows[0]!.n);
}

describe.runIf(TEST_BACKEND === 'postgres')('delta sync with writes committing out of order', () => {
  it('stamps a write that committed after a later one at or after that one, so the next sync sees it', async () => {
    const first = await createProduct('ORDER-A');
    const second = await createProduct('ORDER-B');
    const holder = holding(async (trx, step) => {
      if (step === 'lock') await sql`SELECT id FROM product WHERE id = ${first} FOR UPDATE`.execute(trx);
    });
    await holder.locked;

    // Begins first, at T, and waits for the lock.
    const slow = api<Product>('PUT', `/api/product/${first}`, { ean: 'SLOW' });
    await blockedBy(holder);
    file.server.clock.advance(1000);
    // Begins a second later and commits at once.
    const fast = await api<Product>('PUT', `/api/product/${second}`, { ean: 'FAST' });
    expect(fast.status, fast.text).toBe(200);

    // A sync runs now: it stores the watermark and reads what changed.
    const stored = await watermark();
    expect(stored).toBe(fast.body.data!.updatedAt);

    holder.release();
    await holder.done;
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

describe.runIf(TEST_BACKEND === 'postgres')(
  'moving the stamps of a write that committed out of order',
  () => {
    it('does not wait for a row another writer holds, which would deadlock on the change counter', async () => {
      // Committed in the instant the slow write below begins in (the test clock stands still).
      const other = await createProduct('HELD-OTHER');
      const slowId = await createProduct('HELD-SLOW');
      const fastId = await createProduct('HELD-FAST');
      const before = await deadlocks();

      const first = holding(async (trx, step) => {
        if (step === 'lock') await sql`SELECT id FROM product WHERE id = ${slowId} FOR UPDATE`.execute(trx);
      });
      await first.locked;
      let slowAnswered = false;
      const slow = api<Product>('PUT', `/api/product/${slowId}`, { ean: 'SLOW' }).finally(
        () => (slowAnswered = true),
      );
      await blockedBy(first);
      file.server.clock.advance(1000);
      expect((await api('PUT', `/api/product/${fastId}`, { ean: 'FAST' })).status).toBe(200);

      // Another writer holds the product committed in the slow write's instant, and ends as every
      // write does, on the change counter: on every row of it, so on the slow write's too.
      const second = holding(async (trx, step) => {
        if (step === 'lock')
          await sql`SELECT id FROM product WHERE id = ${other} FOR NO KEY UPDATE`.execute(trx);
        else await sql`UPDATE change_counter SET value = value`.execute(trx);
      });
      await second.locked;
      first.release();
      await first.done;
      // The slow write goes on: it commits, passing over the row the second holds, or (the fault)
      // waits for that row while the second is about to wait for the slow write's counter row.
      await blockedBy(second, () => slowAnswered);
      second.release();

      const [answer] = await Promise.all([slow, second.done]);
      expect(answer.status, answer.text).toBe(200);
      expect(await deadlocks()).toBe(before);
    });
  },
);

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
