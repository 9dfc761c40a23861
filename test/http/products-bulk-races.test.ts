import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { serverPerFile } from '../helpers/file-server.js';
import { pollUntil } from '../helpers/http.js';

/**
 * Bulk writes side by side (PostgreSQL runs them concurrently; SQLite one after another). Every
 * call must answer, none with a 500, and on PostgreSQL none may meet a deadlock: PostgreSQL ends
 * one only after deadlock_timeout (1 s) by aborting a transaction, which is retried, and with
 * several writers the retries ran out (seen: 9 of 32 overlapping batches answered 500). The
 * server's deadlock count shows every one, retried or not.
 */

const file = serverPerFile();

const ndjson = (docs: readonly unknown[]) => docs.map((d) => JSON.stringify(d)).join('\n');

async function bulk(docs: readonly unknown[]) {
  return file.server.request<{ status: number; id: number }[]>('POST', '/api/product/bulk', {
    token: file.token,
    rawBody: ndjson(docs),
    headers: { 'content-type': 'application/x-ndjson' },
  });
}

async function deadlocks(): Promise<number> {
  if (TEST_BACKEND !== 'postgres') return 0;
  const result = await sql<{ n: string }>`
    SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(
    file.server.app.stores.shared,
  );
  return Number(result.rows[0]!.n);
}

/**
 * Runs `send` with its `batches` held at their first statement, then lets them all go at once: on
 * PostgreSQL a transaction of the test's own holds the group they name (each batch reads it first,
 * FOR KEY SHARE), so that their writes meet as those of separate clients do. On SQLite the one
 * writer takes them in turn anyway.
 */
async function startingTogether<T>(groupId: number, batches: number, send: () => Promise<T>): Promise<T> {
  if (TEST_BACKEND !== 'postgres') return send();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld!: (backend: number) => void;
  const held = new Promise<number>((resolve) => (markHeld = resolve));
  const holder = file.server.app.workspaces
    .current()!
    .db.transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
      await sql`SELECT id FROM product_group WHERE id = ${groupId} FOR UPDATE`.execute(trx);
      markHeld(rows[0]!.pid);
      await released;
    });
  const backend = await held;
  const sent = send();
  // Released before every batch waits, a late one would start alone and the race not be run.
  await pollUntil(`${batches} batches wait for backend ${backend}`, async () => {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity
      WHERE ${backend} = ANY(pg_blocking_pids(pid))`.execute(file.server.app.stores.shared);
    return Number(rows[0]!.n) >= batches;
  });
  release();
  await holder;
  return sent;
}

describe('bulk upserts side by side', () => {
  it('four batches of the same new products, two in reverse order, all answer and create each once', async () => {
    const group = await file.server.request<{ id: number }>('POST', '/api/group', {
      token: file.token,
      body: { name: 'Race' },
    });
    const groupId = group.body.data!.id;
    const before = await deadlocks();
    for (let round = 0; round < 4; round++) {
      const pid = (k: number) => `RACE-${round}-${String(k).padStart(3, '0')}`;
      const batches = Array.from({ length: 4 }, (_, b) =>
        Array.from({ length: 300 }, (_, i) => {
          const k = b % 2 === 1 ? 299 - i : i;
          return {
            supplierPid: pid(k),
            groupId,
            shortTexts: [{ lang: 'deu', value: `batch ${b}` }],
            features: [{ ftidref: `RACE-F-${k % 7}`, values: [{ lang: 'deu', value: String(b) }] }],
          };
        }),
      );
      const answers = await startingTogether(groupId, batches.length, () =>
        Promise.all(batches.map((docs) => bulk(docs))),
      );
      for (const answer of answers) expect(answer.status, answer.text).toBe(200);
      const created = answers.flatMap((a) => a.body.data!.filter((d) => d.status === 201));
      expect(created).toHaveLength(300);
      const listed = await file.server.request<{ supplierPid: string }[]>(
        'GET',
        `/api/product?all=true&q=RACE-${round}-`,
        { token: file.token },
      );
      expect(new Set(listed.body.data!.map((p) => p.supplierPid)).size).toBe(300);
      expect(listed.body.data).toHaveLength(300);
      // The ids rise in the order of the batch that created them, also in the reversed ones.
      for (const answer of answers) {
        const ids = answer.body.data!.filter((d) => d.status === 201).map((d) => d.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    }
    expect(await deadlocks()).toBe(before);
  });

  it('bulk upserts, bulk deletes and PUTs of the same products answer without a 500 or a deadlock', async () => {
    const pid = (i: number) => `MIX-${i}`;
    const seeded = await bulk(Array.from({ length: 30 }, (_, i) => ({ supplierPid: pid(i) })));
    expect(seeded.status, seeded.text).toBe(200);
    const ids = seeded.body.data!.map((d) => d.id);
    const before = await deadlocks();
    const statuses = new Map<string, number>();
    const deadline = Date.now() + 4000;
    let seq = 0;
    const worker = async () => {
      while (Date.now() < deadline) {
        const n = ++seq;
        const pick = Math.random();
        const i = Math.floor(Math.random() * 30);
        let res;
        if (pick < 0.45) {
          const picked = [...new Set(Array.from({ length: 10 }, () => Math.floor(Math.random() * 30)))];
          res = await bulk(
            picked.map((k) => ({
              supplierPid: pid(k),
              ean: `E${n}`,
              shortTexts: [{ lang: 'deu', value: `s${n}` }],
            })),
          );
        } else if (pick < 0.85) {
          res = await file.server.request('PUT', `/api/product/${ids[i]}`, {
            token: file.token,
            body: { ean: `P${n}` },
          });
        } else {
          res = await file.server.request('POST', '/api/product/bulk-delete', {
            token: file.token,
            body: { supplierPids: [pid(i)] },
          });
        }
        expect(res.status, res.text).toBeLessThan(500);
        const key = `${pick < 0.45 ? 'bulk' : pick < 0.85 ? 'put' : 'delete'} ${res.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(statuses.get('bulk 200')).toBeGreaterThan(0);
    expect(statuses.get('delete 200')).toBeGreaterThan(0);
    expect(await deadlocks()).toBe(before);
  });

  it.runIf(TEST_BACKEND === 'postgres')(
    'a batch written document by document after three lost races leaves nothing of its refused documents',
    async () => {
      // Three other writers each insert one of the batch's new supplierPids and commit only once
      // the batch waits for them: each set-based try then fails on that key, and after the third
      // the batch is written document by document (product-bulk.service.ts, tryFastPath).
      const pids = ['FALLBACK-1', 'FALLBACK-2', 'FALLBACK-3'];
      const workspace = file.server.app.workspaces.current()!;
      const holders = pids.map((pid) => {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let markHeld!: (backend: number) => void;
        const held = new Promise<number>((resolve) => (markHeld = resolve));
        const done = workspace.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          await sql`INSERT INTO product (supplier_pid, created_at, updated_at)
            VALUES (${pid}, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(trx);
          markHeld(rows[0]!.pid);
          await released;
        });
        return { held, release, done };
      });
      // Every key taken before the batch starts: else the batch could take one first and wait for
      // a writer that waits for it.
      await Promise.all(holders.map((holder) => holder.held));
      const sent = bulk([
        ...pids.map((supplierPid) => ({
          supplierPid,
          features: [{ ftidref: 'FALLBACK-KEPT', values: [{ lang: 'deu', value: supplierPid }] }],
        })),
        {
          supplierPid: 'FALLBACK-REFUSED',
          masterSupplierPid: 'NOBODY-HAS-THIS',
          features: [{ ftidref: 'FALLBACK-ORPHAN', values: [{ lang: 'deu', value: 'x' }] }],
        },
      ]);
      for (const holder of holders) {
        const backend = await holder.held;
        await pollUntil(`the batch waits for backend ${backend}`, async () => {
          const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity
            WHERE ${backend} = ANY(pg_blocking_pids(pid))`.execute(file.server.app.stores.shared);
          return Number(rows[0]!.n) > 0;
        });
        holder.release();
        await holder.done;
      }
      const answer = await sent;
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data!.map((d) => d.status)).toEqual([200, 200, 200, 404]);
      const feature = await file.server.request<{ values: { value: string }[] }>(
        'GET',
        `/api/product/${answer.body.data![0]!.id}/features/FALLBACK-KEPT`,
        { token: file.token },
      );
      expect(feature.status, feature.text).toBe(200);
      const { rows } = await sql<{ ftidref: string }>`SELECT ftidref FROM feature_def
        WHERE ftidref LIKE 'FALLBACK-%' ORDER BY ftidref`.execute(workspace.db);
      expect(rows.map((row) => row.ftidref)).toEqual(['FALLBACK-KEPT']);
    },
  );
});
