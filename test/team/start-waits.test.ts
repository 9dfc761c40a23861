import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveDatabaseUrl } from '../../src/db/database-config.js';
import { createTestDatabase, dropTestDatabase, PG_SERVER_URL, TEST_BACKEND } from '../helpers/backend.js';
import { spawnCli, type SpawnedProcess } from '../helpers/cli.js';
import { loginAt } from '../helpers/http.js';
import { TcpProxy } from './tcp-proxy.js';

/**
 * `pim start` in team mode while the shared database cannot be reached: it says so once and
 * waits, starts by itself when the database answers, and stops at once on Ctrl+C meanwhile.
 * The database is "down" while the TCP proxy in front of it is cut.
 */
describe.runIf(TEST_BACKEND === 'postgres')('pim start while the shared database is down', () => {
  const ADMIN_PASSWORD = 'start-waits-1';
  const proxy = new TcpProxy(Number(new URL(PG_SERVER_URL).port || 5432));
  let database: { name: string; url: string };
  let dir: string;
  let pim: SpawnedProcess | undefined;

  beforeEach(async () => {
    // A port of its own, closed until the test restores it.
    await proxy.restore();
    await proxy.cut();
    database = await createTestDatabase();
    const url = new URL(database.url);
    url.port = String(proxy.port);
    dir = mkdtempSync(join(tmpdir(), 'pim-start-waits-'));
    saveDatabaseUrl(dir, url.toString());
  });
  afterEach(async () => {
    await pim?.kill();
    await proxy.cut();
    await dropTestDatabase(database.name);
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () =>
    spawnCli(dir, ['start', '--port', '0', '--no-ui'], {
      PIM_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PIM_DATABASE_URL: '',
    });

  it('waits, saying why once, and starts when the database answers', async () => {
    pim = start();
    await pim.waitFor(/cannot be reached: .*; trying again every 2 s \(Ctrl\+C stops\)/);
    // Still waiting two attempts later, and said only once.
    await proxy.refuse();
    await expect.poll(() => proxy.refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(pim.output().match(/cannot be reached/g)).toHaveLength(1);
    expect(pim.output()).not.toMatch(/REST API listening/);

    await proxy.restore();
    const [, baseUrl] = await pim.waitFor(/REST API listening on (http:\/\/\S+)\/api/, 15_000);
    expect(pim.output()).toMatch(/the shared database answers; starting/);
    expect(await loginAt(baseUrl!, 'admin', ADMIN_PASSWORD)).toMatch(/\S{20,}/);

    pim.child.kill('SIGINT');
    expect(await pim.exited).toBe(0);
  }, 60_000);

  it('stops at once on Ctrl+C while it waits', async () => {
    pim = start();
    await pim.waitFor(/trying again every/);
    // Ends without waiting for the database (the test's time limit catches a wait).
    pim.child.kill('SIGINT');
    expect(await pim.exited).toBe(0);
    expect(pim.output()).toMatch(/pim: stopped/);
    expect(pim.output()).not.toMatch(/REST API listening/);
  }, 30_000);
});
