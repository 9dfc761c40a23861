import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
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
      const cut = await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'pim-listener' AND datname = current_database()`,
      );
      expect(cut.rowCount).toBe(2);
    } finally {
      await client.end();
    }
  }

  it('refuses a token ended on another instance, also after a local settings change', async () => {
    await a.addUser('watched', 'EDITOR', 'watched-password');
    const token = await a.login('watched', 'watched-password');
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200); // cached now

    await cutListeners();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Another process changes the instance's own data folder: the instance polls it (50 ms here).
    expectSuccess(await runCliAsync(a.dataDir, ['settings', 'set', 'rest.allow', '127.0.0.1, ::1']));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await a.request('GET', '/api/workspace', { token })).status).toBe(200); // read, cached again

    // Ended through the other instance's data folder: its notification cannot reach `a`.
    expectSuccess(await runCliAsync(b.dataDir, ['user', 'logout', 'watched']));
    const answer = await a.request('GET', '/api/workspace', { token });
    expect(answer.status, 'a token ended elsewhere was still accepted from the cache').toBe(401);
  });
});
