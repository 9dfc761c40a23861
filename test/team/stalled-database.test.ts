import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/db/postgres.js';
import { domainErrorOf } from '../../src/domain/domain-error-of.js';
import { createTestDatabase, dropTestDatabase, PG_SERVER_URL, TEST_BACKEND } from '../helpers/backend.js';
import { pollUntil } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';
import { TcpProxy } from './tcp-proxy.js';
import { databaseShown, expectDatabaseUnavailable, startTeam, type Team } from './team.js';
import { WindowClient } from '../helpers/window.js';

/**
 * Team mode with the shared database stalled: the server accepts connections and keeps the open
 * ones, but answers nothing (frozen, or a network cut without a reset). A request whose
 * statement is left unanswered answers 503 DATABASE_UNAVAILABLE after the query timeout, never
 * 500, and waits it out once, not once per statement; everything recovers once the server
 * answers again. A TCP proxy in front of the server holds the bytes.
 */
describe.runIf(TEST_BACKEND === 'postgres')('the shared database stalled', () => {
  const proxy = new TcpProxy(Number(new URL(PG_SERVER_URL).port || 5432));
  let database: { name: string; url: string };
  let throughProxy: URL;

  beforeAll(async () => {
    await proxy.restore();
    database = await createTestDatabase();
    throughProxy = new URL(database.url);
    throughProxy.port = String(proxy.port);
  });
  afterAll(async () => {
    proxy.resume();
    await proxy.cut();
    if (database) await dropTestDatabase(database.name);
  });

  it('ends a transaction caught in it after one query timeout, as unreachable, and drops its connection', async () => {
    const handle = openPostgres<unknown>(throughProxy.toString(), 'public', { queryTimeoutMs: 1000 });
    try {
      const started = Date.now();
      const failed = await handle.db
        .transaction()
        .execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          proxy.stall();
          await sql`SELECT 2`.execute(trx);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      // The statement's timeout, and not a second one for the ROLLBACK behind it.
      expect(Date.now() - started).toBeLessThan(1900);
      expect(domainErrorOf(failed)?.detailCode).toBe('DATABASE_UNAVAILABLE');
      // Never handed out again: the next statement does not queue behind the unanswered one.
      expect(handle.pool.totalCount).toBe(0);
      proxy.resume();
      expect((await sql<{ n: number }>`SELECT 3 AS n`.execute(handle.db)).rows).toEqual([{ n: 3 }]);
    } finally {
      proxy.resume();
      await handle.close();
    }
  });

  describe('through a running instance', () => {
    let team: Team;
    let server: TestServer;
    let token: string;
    const call = <T>(method: string, path: string, body?: unknown) =>
      server.request<T>(method, path, { token, body });

    beforeAll(async () => {
      // node-postgres reads query_timeout from the URL: 1.5 s here instead of 15 s.
      const url = new URL(throughProxy);
      url.searchParams.set('query_timeout', '1500');
      team = await startTeam(1, { url: url.toString() });
      server = team.instances[0]!;
      token = team.tokens[0]!;
    });
    afterAll(async () => {
      proxy.resume();
      await team?.stop();
    });

    it('answers 503 DATABASE_UNAVAILABLE after the query timeout and recovers by itself', async () => {
      const created = await call<{ id: number }>('POST', '/api/product', { supplierPid: 'BEFORE' });
      expect(created.status).toBe(201);
      const id = created.body.data!.id;
      // Connections just used stay in the pool: the requests below get them, and their statements
      // go out to a server that does not answer.
      const warm = await Promise.all(Array.from({ length: 6 }, () => call('GET', `/api/product/${id}`)));
      expect(warm.map((r) => r.status)).toEqual(Array(6).fill(200));

      proxy.stall();
      const started = Date.now();
      const answers = await Promise.all([
        call('GET', `/api/product/${id}`),
        call('GET', '/api/product?all=true'),
        call('PUT', `/api/product/${id}`, { ean: '4006381333931' }),
        call('POST', '/api/product', { supplierPid: 'DURING' }),
        call('PUT', `/api/product/${id}/texts/short/deu`, { value: 'x' }),
        call('GET', '/api/group/tree'),
      ]);
      answers.forEach(expectDatabaseUnavailable);
      // A pooled connection's request waits the query timeout, another one the connect timeout (5 s).
      expect(Date.now() - started).toBeLessThan(9000);

      proxy.resume();
      await pollUntil(
        'the product is readable again',
        async () => (await call('GET', `/api/product/${id}`)).status === 200,
        10_000,
      );
      expect((await call('POST', '/api/product', { supplierPid: 'AFTER' })).status).toBe(201);
    });
  });

  describe('in the window', () => {
    let team: Team;
    let own: { name: string; url: string };

    beforeAll(async () => {
      own = await createTestDatabase();
      const url = new URL(own.url);
      url.port = String(proxy.port);
      // The default query timeout (15 s): the status bar must not wait for it.
      team = await startTeam(1, { url: url.toString(), window: true });
    });
    afterAll(async () => {
      proxy.resume();
      await team?.stop();
      if (own) await dropTestDatabase(own.name);
    });

    it('shows the database as unreachable within seconds, and as reachable once it answers', async () => {
      const window = new WindowClient(team.instances[0]!);
      await window.login();
      const events = window.events();
      try {
        await events.waitFor(databaseShown(true));
        proxy.stall();
        const started = Date.now();
        await events.waitFor(databaseShown(false), 10_000);
        // The probe's own 3 s, far from the requests' 15 s query timeout.
        expect(Date.now() - started).toBeLessThan(8000);
        proxy.resume();
        events.received.length = 0;
        await events.waitFor(databaseShown(true), 15_000);
      } finally {
        events.close();
      }
    });
  });
});
