import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { runCliAsync, spawnCli, startCli } from '../helpers/cli.js';
import { apiRequest, loginAt } from '../helpers/http.js';
import { processesPerTest } from '../helpers/started-processes.js';

/**
 * `pim start` sets a data folder up once and serves it once: a first run that stopped half-way is
 * finished by the next start (its password shown then), and a second start beside a running one
 * refuses with one line instead of sharing the folder.
 */
describe('pim start, once per data folder', () => {
  const started = processesPerTest();
  const { track } = started;

  async function productCount(baseUrl: string, token: string): Promise<number> {
    const res = await apiRequest<unknown[]>(baseUrl, 'GET', '/api/product?all=true', { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data!.length;
  }

  it('finishes a first run that failed half-way at the next start, with a password that works', async () => {
    // The demo workspace's folder is taken by a file: the first run fails after adding the admin.
    mkdirSync(join(started.dataDir, 'workspaces'), { recursive: true });
    writeFileSync(join(started.dataDir, 'workspaces', 'demo'), 'in the way');
    const failed = track(
      spawnCli(started.dataDir, ['start', '--port', '0', '--ui-port', '0'], { PIM_ADMIN_PASSWORD: '' }),
    );
    await failed.waitFor(/pim: The folder given for workspace 'Demo' exists/);
    expect(await failed.exited).toBe(1);
    expect(failed.output()).not.toMatch(/Password:/);

    rmSync(join(started.dataDir, 'workspaces', 'demo'));
    const proc = track(await startCli(started.dataDir, { PIM_ADMIN_PASSWORD: '' }));
    const [, password] = /Password:\s+(\S+)/.exec(proc.output()) ?? [];
    expect(password, proc.output()).toBeDefined();
    expect(proc.output()).toMatch(/Workspace: +Demo \(opened; 40 products, 10 groups\)/);
    const token = await loginAt(proc.baseUrl, 'admin', password!);
    expect(await productCount(proc.baseUrl, token)).toBe(40);
    expect(existsSync(join(started.dataDir, 'first-run.pending'))).toBe(false);
    const users = await runCliAsync(started.dataDir, ['user', 'list']);
    expect(users.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('sets the first run up again when its generated password was never shown, and keeps the demo once', async () => {
    // Application.start without `pim start`'s banner: as a crash between setup and banner.
    const first = await Application.open({ dataDir: started.dataDir, restOverride: { port: 0 }, noUi: true });
    const report = await first.start();
    const shownNever = report.firstRun!.adminPassword;
    await first.stop();

    const proc = track(await startCli(started.dataDir, { PIM_ADMIN_PASSWORD: '' }));
    const [, password] = /Password:\s+(\S+)/.exec(proc.output()) ?? [];
    expect(password, proc.output()).toBeDefined();
    expect(password).not.toBe(shownNever);
    const token = await loginAt(proc.baseUrl, 'admin', password!);
    expect(await productCount(proc.baseUrl, token)).toBe(40);
    const workspaces = await apiRequest<{ name: string }[]>(proc.baseUrl, 'GET', '/api/workspace', { token });
    expect(workspaces.body.data!.map((w) => w.name)).toEqual(['Demo']);
    const stale = await apiRequest(proc.baseUrl, 'POST', '/api/auth/login', {
      body: { username: 'admin', password: shownNever },
    });
    expect(stale.status).toBe(401);
  });

  it('creates a missing data folder for its owner only, as the application does', async () => {
    const fresh = join(started.dataDir, 'fresh');
    const proc = track(await startCli(fresh, { PIM_ADMIN_PASSWORD: 'fresh-pw' }));
    await loginAt(proc.baseUrl, 'admin', 'fresh-pw');
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    // So is what marks it served: the folder running/, the start's pid file and its lock.
    const running = join(fresh, 'running');
    expect(statSync(running).mode & 0o777).toBe(0o700);
    expect(readdirSync(running).sort()).toEqual([`${proc.child.pid}.json`, 'start.lock']);
    for (const file of readdirSync(running))
      expect(statSync(join(running, file)).mode & 0o777, file).toBe(0o600);
  });

  it('restricts a running/ folder an earlier version made readable by all', async () => {
    const older = join(started.dataDir, 'older');
    mkdirSync(join(older, 'running'), { recursive: true, mode: 0o755 });
    chmodSync(join(older, 'running'), 0o755);
    const proc = track(await startCli(older, { PIM_ADMIN_PASSWORD: 'older-pw' }));
    await loginAt(proc.baseUrl, 'admin', 'older-pw');
    expect(statSync(join(older, 'running')).mode & 0o777).toBe(0o700);
  });

  it('refuses a second start on a served data folder with one line, and starts once the first is gone', async () => {
    const running = track(await startCli(started.dataDir, { PIM_ADMIN_PASSWORD: 'once-pw' }));
    const second = track(spawnCli(started.dataDir, ['start', '--port', '0', '--ui-port', '0']));
    await second.waitFor(/already running/);
    expect(await second.exited).toBe(1);
    expect(second.output().trim()).toBe(
      `pim: pim is already running on this data folder (pid ${running.child.pid}); stop it first, or start another with --data-dir`,
    );
    await loginAt(running.baseUrl, 'admin', 'once-pw');

    // A start that ended without cleaning up (SIGKILL) leaves no claim behind.
    running.child.kill('SIGKILL');
    await running.exited;
    const next = track(await startCli(started.dataDir));
    await loginAt(next.baseUrl, 'admin', 'once-pw');
  });
});
