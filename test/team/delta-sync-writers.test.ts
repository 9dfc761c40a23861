import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { pollUntil } from '../helpers/http.js';
import { startTeam, type Team } from './team.js';

/**
 * Issue 34: on PostgreSQL concurrent writers no longer pass one change-counter row one at a time
 * (docs/storage.md, "The change counter on PostgreSQL"), so writes of two instances commit side
 * by side and out of the order of their instants. A delta reader polling all along, storing the
 * watermark of GET /api/workspace before each read as documented, must still see every change:
 * after the writers stop and one last sync, its copy equals the catalogue. The change counter
 * must still rise by one per committed write.
 */

interface Product {
  id: number;
  supplierPid: string;
  ean: string | null;
  updatedAt: string;
}
interface WorkspaceState {
  active: boolean;
  changeCounter: number | null;
  changedAt: string | null;
}

const WRITERS_PER_INSTANCE = 6;
const WRITES_PER_WRITER = 16;

describe.runIf(TEST_BACKEND === 'postgres')('delta sync with many writers on two instances', () => {
  let team: Team;
  const call = <T>(i: number, method: string, path: string, body?: unknown) =>
    team.instances[i]!.request<T>(method, path, { token: team.tokens[i], body });

  beforeAll(async () => {
    team = await startTeam(2);
  });
  afterAll(() => team?.stop());
  const db = () => team.instances[0]!.app.workspaces.current()!.db;

  /**
   * Makes the commit of a change to product `id` wait, after every statement of its transaction,
   * until open(): a deferred trigger takes an advisory lock the test holds meanwhile.
   */
  async function commitGate(id: number) {
    await sql`CREATE FUNCTION test_commit_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock_shared(3434); RETURN NULL; END $$`.execute(db());
    await sql`CREATE CONSTRAINT TRIGGER test_commit_gate AFTER UPDATE ON product
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id = ${sql.lit(id)})
      EXECUTE FUNCTION test_commit_gate()`.execute(db());
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    let held!: (pid: number) => void;
    const holder = new Promise<number>((resolve) => (held = resolve));
    const done = db()
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`
          SELECT pg_backend_pid() AS pid, pg_advisory_xact_lock(3434)`.execute(trx);
        held(rows[0]!.pid);
        await opened;
      });
    const pid = await holder;
    return {
      /** Until a commit waits at the gate. */
      waited: () =>
        pollUntil('a commit waits at the gate', async () => {
          const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity
            WHERE ${pid} = ANY(pg_blocking_pids(pid))`.execute(db());
          return Number(rows[0]!.n) > 0;
        }),
      open,
      async close() {
        open();
        await done;
        await sql`DROP TRIGGER test_commit_gate ON product`.execute(db());
        await sql`DROP FUNCTION test_commit_gate()`.execute(db());
      },
    };
  }

  async function workspaceState(i: number): Promise<WorkspaceState> {
    const res = await call<WorkspaceState[]>(i, 'GET', '/api/workspace');
    expect(res.status, res.text).toBe(200);
    return res.body.data!.find((w) => w.active)!;
  }

  /** A delta reader's copy: the products it has seen, by id, and the watermark it stored. */
  function reader(i: number) {
    const copy = new Map<number, Product>();
    let watermark: string | null = null;
    let rounds = 0;
    return {
      copy,
      rounds: () => rounds,
      async sync() {
        const next = (await workspaceState(i)).changedAt;
        const query = watermark === null ? '' : `&updatedSince=${encodeURIComponent(watermark)}`;
        const res = await call<Product[]>(i, 'GET', `/api/product?all=true${query}`);
        expect(res.status, res.text).toBe(200);
        for (const product of res.body.data!) copy.set(product.id, product);
        watermark = next;
        rounds++;
      },
    };
  }

  /** Creates, then changes its own product, through instance `i`; the clock moves between writes. */
  async function writer(i: number, w: number): Promise<void> {
    let id: number | undefined;
    for (let n = 0; n < WRITES_PER_WRITER; n++) {
      // The instances share the test's clock: every write begins in an instant of its own, and
      // writes that began earlier commit after later ones whenever the database lets them.
      team.instances[0]!.clock.advance(1);
      if (id === undefined || n % 4 === 0) {
        const res = await call<Product>(i, 'POST', '/api/product', { supplierPid: `W${i}-${w}-${n}` });
        expect(res.status, res.text).toBe(201);
        id = res.body.data!.id;
      } else {
        const res = await call<Product>(i, 'PUT', `/api/product/${id}`, { ean: `E${i}-${w}-${n}` });
        expect(res.status, res.text).toBe(200);
      }
    }
  }

  it('misses no change committed while it polls, and the counter counts every write', async () => {
    const before = (await workspaceState(0)).changeCounter!;
    const polling = reader(1);
    await polling.sync();
    let writing = true;
    const writers = Promise.all(
      [0, 1].flatMap((i) => Array.from({ length: WRITERS_PER_INSTANCE }, (_, w) => writer(i, w))),
    ).finally(() => (writing = false));
    const poller = (async () => {
      while (writing) await polling.sync();
    })();
    await Promise.all([writers, poller]);
    await polling.sync();

    const all = await call<Product[]>(0, 'GET', '/api/product?all=true');
    const truth = new Map(all.body.data!.map((p) => [p.id, p]));
    expect(truth.size).toBe(2 * WRITERS_PER_INSTANCE * (WRITES_PER_WRITER / 4));
    // The reader synced while the writers wrote (not once before and once after).
    expect(polling.rounds()).toBeGreaterThan(3);
    const stale = [...truth.values()].filter((p) => {
      const seen = polling.copy.get(p.id);
      return !seen || seen.ean !== p.ean || seen.updatedAt !== p.updatedAt;
    });
    expect(stale).toEqual([]);

    const after = await workspaceState(1);
    expect(after.changeCounter).toBe(before + 2 * WRITERS_PER_INSTANCE * WRITES_PER_WRITER);
    expect(after.changedAt).toBe(
      [...truth.values()]
        .map((p) => p.updatedAt)
        .sort()
        .at(-1),
    );
  });

  it('spreads the writers over several counter rows', async () => {
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM change_counter`.execute(db());
    expect(Number(rows[0]!.n)).toBeGreaterThan(1);
  });

  it('gives no watermark past a write that is committing while another one with a later stamp committed', async () => {
    // Counter rows as concurrent writers make them, so that the two writes below take two.
    await sql`INSERT INTO change_counter (id, value, stamp)
      SELECT g, 0, (SELECT stamp FROM change_counter WHERE id = 1) FROM generate_series(2, 8) g
      ON CONFLICT (id) DO NOTHING`.execute(db());
    const slowId = (await call<Product>(0, 'POST', '/api/product', { supplierPid: 'SLOW' })).body.data!.id;
    const fastId = (await call<Product>(1, 'POST', '/api/product', { supplierPid: 'FAST' })).body.data!.id;
    const polling = reader(1);
    await polling.sync();

    // A commit that takes long (a slow flush): held at its very end, after its counter statements.
    const gate = await commitGate(slowId);
    try {
      team.instances[0]!.clock.advance(1);
      const slow = call<Product>(0, 'PUT', `/api/product/${slowId}`, { ean: 'SLOW' });
      await gate.waited();
      team.instances[0]!.clock.advance(1000);
      const fast = await call<Product>(1, 'PUT', `/api/product/${fastId}`, { ean: 'FAST' });
      expect(fast.status, fast.text).toBe(200);
      // The reader syncs while the slow write is committing: it sees the fast one...
      await polling.sync();
      expect(polling.copy.get(fastId)?.ean).toBe('FAST');
      expect(polling.copy.get(slowId)?.ean).toBe(null);
      gate.open();
      const slowAnswer = await slow;
      expect(slowAnswer.status, slowAnswer.text).toBe(200);
      // ...and the slow one in its next sync, though it is stamped before the fast one.
      expect(slowAnswer.body.data!.updatedAt < fast.body.data!.updatedAt).toBe(true);
      await polling.sync();
      expect(polling.copy.get(slowId)?.ean).toBe('SLOW');
    } finally {
      await gate.close();
    }
  });
});
