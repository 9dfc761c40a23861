import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveDatabaseUrl } from '../../src/db/database-config.js';
import { runCliAsync, startCli } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { connectStdio } from '../helpers/mcp.js';

/**
 * `pim setup --database` while pim serves the data folder: the running process would keep the
 * database it started with while the CLI switched to the other one (users added where the
 * running instance never looks), so the switch is refused, either way, before it changes
 * anything. The target is unreachable on purpose: passing the check shows as "cannot be reached".
 */
describe('pim setup beside a running pim', () => {
  const env = { PIM_DATABASE_URL: '' };
  const TARGET = 'postgres://pim@127.0.0.1:1/pim';
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pim-setup-running-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const setup = (database: string) => runCliAsync(dir, ['setup', '--database', database, '--force'], { env });
  const refusal =
    /pim (start|mcp) \(pid \d+\) runs on this data folder and would keep the database it started with: stop it first; nothing was changed/;

  it('is refused while pim start or pim mcp runs, and goes ahead once they stopped', async () => {
    const server = await startCli(dir, { ...env, PIM_ADMIN_PASSWORD: 'admin-secret-1' }, ['--no-ui']);
    try {
      expectOneLineError(await setup(TARGET), refusal);
      // The way back too: a data folder on PostgreSQL (here one written by hand) stays on it.
      saveDatabaseUrl(dir, TARGET);
      expectOneLineError(await setup('sqlite'), refusal);
      expect(existsSync(join(dir, 'database.json'))).toBe(true);
      rmSync(join(dir, 'database.json'));
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
    }
    const agent = await connectStdio(dir, ['--user', 'admin'], { PIM_PASSWORD: 'admin-secret-1' });
    try {
      expectOneLineError(await setup(TARGET), refusal);
    } finally {
      await agent.close();
    }
    expectOneLineError(await setup(TARGET), /cannot be reached/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
    expectSuccess(await setup('sqlite'));
  }, 60_000);
});
