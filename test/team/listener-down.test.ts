import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, PG_SERVER_URL, TEST_BACKEND } from '../helpers/backend.js';
import { pollUntil } from '../helpers/http.js';
import { TcpProxy } from './tcp-proxy.js';
import { runCliAsync } from '../helpers/cli.js';
import { expectSuccess } from '../helpers/expect-cli.js';
import type { TestServer } from '../helpers/server.js';
import { startTeam, type Team } from './team.js';

/**
 * Team mode while an instance cannot hear the others (its notification connection lost, the
 * database itself reachable): every token is read from the database, so sessions ended
 * elsewhere are refused at once, also after a change to the instance's own data folder (which
 * forgets the cached sessions but must not make the cache trusted again).
 */
describe.runIf(TEST_BACKEND === 'postgres')('an instance whose notifications are down', () => {
  let team: Team;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // The listeners stay down once cut, for as long as the test needs.
    team = await startTeam(2, { listenerRetryMs: 600_000 });
    [a, b] = team.instances as [TestServer, TestServer];
  });
  afterAll(() => team?.stop());

  async function cutListeners(): Promise<void> {
    const client = new pg.Client({ connectionString: team.url });
    await client.connect();
    try {
      // With a timeout it returns once the backend is gone: it can hear no notification after.
      const cut = await client.query<{ gone: boolean }>(
        `SELECT pg_terminate_backend(pid, 5000) AS gone FROM pg_stat_activity
          WHERE application_name = 'pim-listener' AND datname = current_database()`,
      );
      expect(cut.rows.map((row) => row.gone)).toEqual([true, true]);
    } finally {
      await client.end();
    }
  }

  it('refuses a token ended on another instance, also after a local settings change', async () => {
    await a.addUser('watched', 'EDITOR', 'watched-password');
    const token = await a.login('watched', 'watched-password');
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200); // cached now
    await a.addUser('probe', 'EDITOR', 'probe-password');
    const probe = await a.login('probe', 'probe-password');
    const status = async (bearer: string) =>
      (await a.request('GET', '/api/workspace', { token: bearer })).status;
    expect(await status(probe)).toBe(200); // cached too

    await cutListeners();
    // Ended where `a` cannot hear it, the probe's session answers from the cache until `a` has
    // noticed that its listener is gone and stopped trusting the cache.
    expectSuccess(await runCliAsync(b.dataDir, ['user', 'logout', 'probe']));
    await expect.poll(() => status(probe)).toBe(401);
    // Another process changes the instance's own data folder (polled every 50 ms here): first an
    // allow list without the test's address, whose 403 shows that the change was applied, then back.
    expectSuccess(await runCliAsync(a.dataDir, ['settings', 'set', 'rest.allow', '127.0.0.2']));
    await expect.poll(() => status(token)).toBe(403);
    expectSuccess(await runCliAsync(a.dataDir, ['settings', 'set', 'rest.allow', '127.0.0.1, ::1']));
    await expect.poll(() => status(token)).toBe(200); // read, cached again

    // Ended through the other instance's data folder: its notification cannot reach `a`.
    expectSuccess(await runCliAsync(b.dataDir, ['user', 'logout', 'watched']));
    const answer = await a.request('GET', '/api/workspace', { token });
    expect(answer.status, 'a token ended elsewhere was still accepted from the cache').toBe(401);
  });
});

describe.runIf(TEST_BACKEND === 'postgres')('an instance whose notification link dies without a word', () => {
  const proxy = new TcpProxy(Number(new URL(PG_SERVER_URL).port || 5432));
  let database: { name: string; url: string };
  let team: Team;

  beforeAll(async () => {
    await proxy.restore();
    database = await createTestDatabase();
    const url = new URL(database.url);
    url.port = String(proxy.port);
    team = await startTeam(1, { url: url.toString() });
  });
  afterAll(async () => {
    await team?.stop();
    await proxy.cut();
    if (database) await dropTestDatabase(database.name);
  });

  it('notices within seconds and stops trusting its cached sessions (a NAT forgot the connection)', async () => {
    const [a] = team.instances as [TestServer];
    await a.addUser('silent', 'EDITOR', 'silent-password');
    const token = await a.login('silent', 'silent-password');
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200); // cached now

    // No error, no end: the listener's connection just stops carrying bytes; new ones work.
    expect(proxy.freeze('pim-listener')).toBe(1);
    expectSuccess(await runCliAsync(a.dataDir, ['user', 'logout', 'silent']));
    await pollUntil(
      'the ended token is refused',
      async () => (await a.request('GET', '/api/workspace', { token })).status === 401,
      10_000,
    );
  });
});
