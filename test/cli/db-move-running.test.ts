import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync, startCli } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { connectStdio } from '../helpers/mcp.js';

/**
 * `pim db move` while pim serves the data folder: what `pim start` or `pim mcp` wrote after the
 * copy would stay behind in SQLite, so the move is refused before it touches anything. A process
 * that was killed leaves its mark behind; that one must not block the move. The target here is
 * unreachable on purpose: passing the check shows as the next refusal, "cannot be reached".
 */
describe('pim db move beside a running pim', () => {
  const env = { PIM_DATABASE_URL: '' };
  const TARGET = 'postgres://pim@127.0.0.1:1/pim';
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pim-move-running-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const move = () => runCliAsync(dir, ['db', 'move', '--to', TARGET], { env });
  // One `<pid>.json` per process (running-processes.ts); `start.lock` is the start's claim, kept.
  const marks = () =>
    existsSync(join(dir, 'running'))
      ? readdirSync(join(dir, 'running')).filter((name) => name.endsWith('.json'))
      : [];

  it('is refused while pim start or pim mcp runs, and goes ahead once they stopped', async () => {
    const server = await startCli(dir, { ...env, PIM_ADMIN_PASSWORD: 'admin-secret-1' }, ['--no-ui']);
    try {
      expectOneLineError(
        await move(),
        /pim start \(pid \d+\) runs on this data folder: stop it first; nothing was moved/,
      );
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
    }
    const agent = await connectStdio(dir, ['--user', 'admin'], { PIM_PASSWORD: 'admin-secret-1' });
    try {
      expectOneLineError(await move(), /pim mcp \(pid \d+\) runs on this data folder/);
    } finally {
      await agent.close();
    }
    // Both ended: their marks are gone, and the move goes on to the (unreachable) database.
    await expect.poll(marks).toEqual([]);
    expectOneLineError(await move(), /cannot be reached/);
    expect(existsSync(join(dir, 'database.json'))).toBe(false);
  }, 60_000);

  it('is not blocked by the mark of a pim that was killed', async () => {
    const server = await startCli(dir, { ...env, PIM_ADMIN_PASSWORD: 'admin-secret-1' }, ['--no-ui']);
    server.child.kill('SIGKILL');
    await server.exited;
    expect(marks()).toHaveLength(1);
    expectOneLineError(await move(), /cannot be reached/);
    expect(marks()).toEqual([]);
    expectSuccess(await runCliAsync(dir, ['workspace', 'list'], { env }));
  }, 60_000);
});
