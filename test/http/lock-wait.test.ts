import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { serverPerFile, type FileServer } from '../helpers/file-server.js';
import { activeWorkspacePlace, expectDatabaseBusy, holdWriteLock } from '../helpers/lock-holder.js';

interface Product {
  id: number;
  supplierPid: string;
}

/** A request whose answer is awaited later; `settled` says whether it came yet. */
function pending<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  return { promise: tracked, settled: () => done };
}

/** A product created, then the workspace's write lock taken by another process. */
async function createdThenLocked(shared: FileServer, supplierPid: string, name: string) {
  const { server, token } = shared;
  const created = await server.request<Product>('POST', '/api/product', {
    token,
    body: { supplierPid, name },
  });
  expect(created.status, created.text).toBe(201);
  const holder = await holdWriteLock(await activeWorkspacePlace(server, token));
  return { id: created.body.data!.id, holder };
}

/**
 * Another process (`pim mcp`, the CLI, a backup tool; on PostgreSQL another instance or an
 * administrator) holds a workspace's write lock. A write on the server waits for it without
 * stopping the server: reads are answered meanwhile, and the write lands once the lock is free;
 * past the wait's deadline it answers 503 DATABASE_BUSY and writes nothing. Before, on SQLite,
 * the write waited inside SQLite on the event loop and nothing at all was answered until it
 * ended; on PostgreSQL the wait ran into the 15 s query timeout and answered DATABASE_UNAVAILABLE.
 */
describe('a write lock another process holds', () => {
  describe('released within the wait', () => {
    // Long, so that a slow machine never turns the wait into a 503: the test ends by releasing.
    const shared = serverPerFile({ lockWaitMs: 60_000 });

    it('answers reads while writes wait, then lands the writes', async () => {
      const { server, token } = shared;
      const { id, holder } = await createdThenLocked(shared, 'LW-1', 'Before the lock');
      const writes = ['LW-2', 'LW-3'].map((supplierPid) =>
        pending(server.request('POST', '/api/product', { token, body: { supplierPid, name: supplierPid } })),
      );
      const update = pending(
        server.request('PUT', `/api/product/${id}`, { token, body: { ean: '4000001' } }),
      );
      try {
        // PostgreSQL can show that the writes wait for the holder; on SQLite they cannot have
        // ended either, as the lock is held, and the reads below are sent after them.
        if (TEST_BACKEND === 'postgres') await expect.poll(() => holder.waitedFor()).toBe(true);
        // Each read answers while every write still waits: the server is not frozen by them.
        for (let round = 0; round < 10; round++) {
          const byId = await server.request<Product>('GET', `/api/product/${id}`, { token });
          expect(byId.status, byId.text).toBe(200);
          const page = await server.request<Product[]>('GET', '/api/product?limit=100', { token });
          expect(page.status, page.text).toBe(200);
          expect(page.body.data!.map((p) => p.supplierPid)).toEqual(['LW-1']);
          expect([...writes, update].map((w) => w.settled())).toEqual([false, false, false]);
        }
        expect(await holder.held()).toBe(true);
      } finally {
        await holder.release();
      }

      for (const write of writes) {
        const res = await write.promise;
        expect(res.status, res.text).toBe(201);
      }
      const updated = await update.promise;
      expect(updated.status, updated.text).toBe(200);
      const list = await server.request<Product[]>('GET', '/api/product?all=true', { token });
      expect(list.body.data!.map((p) => p.supplierPid).sort()).toEqual(['LW-1', 'LW-2', 'LW-3']);
      const read = await server.request<{ ean: string }>('GET', `/api/product/${id}`, { token });
      expect(read.body.data!.ean).toBe('4000001');
    });
  });

  describe('held past the wait', () => {
    const shared = serverPerFile({ lockWaitMs: 300 });

    it('answers the write 503 DATABASE_BUSY with Retry-After and writes nothing', async () => {
      const { server, token } = shared;
      const holder = await holdWriteLock(await activeWorkspacePlace(shared.server, shared.token));
      let res;
      try {
        res = await server.request('POST', '/api/product', {
          token,
          body: { supplierPid: 'LW-BUSY', name: 'Never written' },
        });
        // The answer came while the lock was still held: the deadline, not a release, ended the wait.
        expect(await holder.held()).toBe(true);
      } finally {
        await holder.release();
      }
      expectDatabaseBusy(res);
      const list = await server.request<Product[]>('GET', '/api/product?all=true', { token });
      expect(list.body.data!.map((p) => p.supplierPid)).not.toContain('LW-BUSY');
      const again = await server.request('POST', '/api/product', {
        token,
        body: { supplierPid: 'LW-BUSY', name: 'Written now' },
      });
      expect(again.status, again.text).toBe(201);
    });

    it('answers every write waiting together 503 and writes none of them', async () => {
      const { server, token } = shared;
      const { id, holder } = await createdThenLocked(shared, 'LW-MANY-0', 'Alt');
      let answers;
      try {
        // On SQLite they queue behind one BEGIN (group commit): its deadline answers them all.
        answers = await Promise.all([
          server.request('POST', '/api/product', { token, body: { supplierPid: 'LW-MANY-1' } }),
          server.request('POST', '/api/product', { token, body: { supplierPid: 'LW-MANY-2' } }),
          server.request('PUT', `/api/product/${id}/texts/short/deu`, { token, body: { value: 'Neu' } }),
        ]);
        expect(await holder.held()).toBe(true);
      } finally {
        await holder.release();
      }
      for (const answer of answers) expectDatabaseBusy(answer);
      const list = await server.request<Product[]>('GET', '/api/product?all=true', { token });
      const pids = list.body.data!.map((p) => p.supplierPid);
      expect(pids).not.toContain('LW-MANY-1');
      expect(pids).not.toContain('LW-MANY-2');
      const text = await server.request<{ value: string }>('GET', `/api/product/${id}/texts/short/deu`, {
        token,
      });
      expect(text.body.data!.value).toBe('Alt');
    });
  });
});
