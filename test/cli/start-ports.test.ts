import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliAsync, spawnCli } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { apiRequest, freePort, loginAt, pollUntil, refusesConnections } from '../helpers/http.js';
import { processesPerTest } from '../helpers/started-processes.js';

/**
 * The ports of `pim start` as settings change under it: it follows rest.host and rest.port without
 * a restart (the settings live in the data folder on either backend, so this runs on SQLite only);
 * a port that cannot be bound leaves the server serving where it was, and says so; a start that
 * cannot serve REST says why, once.
 */
describe('pim start and ports it cannot have', () => {
  const started = processesPerTest();
  const blockers: Server[] = [];
  afterEach(async () => {
    for (const blocker of blockers.splice(0)) await new Promise((resolve) => blocker.close(resolve));
  });

  const cli = (...args: string[]) => runCliAsync(started.dataDir, args);

  /** A port another program listens on (`port`, or any), for the rest of the test. */
  async function busyPort(port = 0): Promise<number> {
    const server = createServer();
    blockers.push(server);
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port }, resolve));
    return (server.address() as { port: number }).port;
  }

  /** Waits until REST answers a login on `port` (the running pim applies settings within a second). */
  async function loginOnceServed(port: number, what: string): Promise<void> {
    await pollUntil(what, async () => {
      try {
        await loginAt(`http://127.0.0.1:${port}`, 'admin', 'ports-pw');
        return true;
      } catch {
        return false;
      }
    });
  }

  async function prepare(restPort: number, uiPort: number): Promise<void> {
    expectSuccess(
      await runCliAsync(started.dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'ports-pw\n',
      }),
    );
    // The port first: enabling probes where the REST server will listen.
    expectSuccess(await cli('settings', 'set', 'rest.port', String(restPort)));
    expectSuccess(await cli('settings', 'set', 'rest.enabled', 'true'));
    expectSuccess(await cli('settings', 'set', 'ui.port', String(uiPort)));
  }

  /**
   * Stores a setting past the probe of `pim settings set`, as the running pim finds it: as if the
   * port were taken, or the name stopped resolving, between the save and the start's next look.
   */
  function storeUnprobed(key: string, value: unknown): void {
    const system = new Database(join(started.dataDir, 'system.sqlite'));
    try {
      system
        .prepare(
          'INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        )
        .run(key, JSON.stringify(value));
    } finally {
      system.close();
    }
  }

  /** `pim start` on two free ports saved beforehand, once it says it is running. */
  async function startOnFreePorts() {
    const [first, ui] = [await freePort(), await freePort()];
    await prepare(first, ui);
    const proc = spawnCli(started.dataDir, ['start']);
    started.track(proc);
    await proc.waitFor(/pim is running/);
    return { first, ui, proc };
  }

  it('listens on rest.host:rest.port from the settings and follows a port change without a restart', async () => {
    const [first, second] = [await freePort(), await freePort()];
    expectSuccess(await cli('settings', 'set', 'rest.port', String(first)));
    expectSuccess(await cli('settings', 'set', 'rest.host', 'localhost'));
    expectSuccess(await cli('settings', 'set', 'rest.enabled', 'true'));
    const proc = started.track(spawnCli(started.dataDir, ['start', '--ui-port', '0']));
    const [, url] = await proc.waitFor(/REST API listening on (http:\/\/\S+)\/api/);
    expect(url).toBe(`http://localhost:${first}`);
    expect((await apiRequest(`http://127.0.0.1:${first}`, 'GET', '/api/openapi.json')).status).toBe(200);

    expectSuccess(await cli('settings', 'set', 'rest.port', String(second)));
    await pollUntil('the server moved to the new port', async () => !(await refusesConnections(second)));
    expect((await apiRequest(`http://127.0.0.1:${second}`, 'GET', '/api/openapi.json')).status).toBe(200);
    await pollUntil('the old port is closed', () => refusesConnections(first));

    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
    expect(proc.output()).toMatch(/stopped/);
  });

  it('refuses a taken port while pim runs, but not the port pim itself holds', async () => {
    const { first, proc } = await startOnFreePorts();

    const taken = await busyPort();
    const busy = new RegExp(`^pim: Port ${taken} on 127\\.0\\.0\\.1 is in use by another program$`);
    expectOneLineError(await cli('settings', 'set', 'rest.port', String(taken)), busy);
    expectOneLineError(await cli('settings', 'set', 'ui.port', String(taken)), busy);
    expect((await cli('settings', 'get', 'rest.port')).stdout).toBe(`${first}\n`);
    // Another address on the port pim holds: a probe would find pim itself there; pim moves itself.
    expectSuccess(await cli('settings', 'set', 'rest.host', 'localhost'));
    await proc.waitFor(new RegExp(`REST API listening on http://localhost:${first}/api`));
    await loginAt(`http://127.0.0.1:${first}`, 'admin', 'ports-pw');
  });

  it('keeps serving on the old port when a new one cannot be bound after all, and moves once a free one is set', async () => {
    const { first, ui, proc } = await startOnFreePorts();

    const taken = await busyPort();
    storeUnprobed('rest.port', taken);
    await proc.waitFor(
      new RegExp(
        `REST server stays on http://127\\.0\\.0\\.1:${first}, because with the new settings port ${taken}.* in use`,
      ),
    );
    await loginAt(`http://127.0.0.1:${first}`, 'admin', 'ports-pw');

    const uiTaken = await busyPort();
    storeUnprobed('ui.port', uiTaken);
    await proc.waitFor(
      new RegExp(
        `window stays on http://127\\.0\\.0\\.1:${ui}, because with the new settings port ${uiTaken}.* in use`,
      ),
    );
    const page = await fetch(`http://127.0.0.1:${ui}/`);
    expect(page.status).toBe(200);

    // A host name that does not resolve has no port to name.
    storeUnprobed('rest.host', 'nosuch.invalid');
    await proc.waitFor(
      new RegExp(
        `REST server stays on http://127\\.0\\.0\\.1:${first}, because with the new settings ` +
          'the address nosuch\\.invalid cannot be bound: the host name is unknown',
      ),
    );
    storeUnprobed('rest.host', '127.0.0.1');

    const next = await freePort();
    expectSuccess(await cli('settings', 'set', 'rest.port', String(next)));
    await loginOnceServed(next, 'REST on the new port');
    expect(await refusesConnections(first)).toBe(true);
  });

  it('lets --port and --ui-port last until the settings they replace are changed', async () => {
    const [saved, ui] = [await freePort(), await freePort()];
    await prepare(saved, ui);
    const proc = spawnCli(started.dataDir, ['start', '--port', '0', '--ui-port', '0']);
    started.track(proc);
    const [, overridden] = await proc.waitFor(/REST API listening on http:\/\/127\.0\.0\.1:(\d+)\/api/);
    expect(Number(overridden)).not.toBe(saved);
    expect(await refusesConnections(saved)).toBe(true);
    // Another setting changes: the override stays.
    expectSuccess(await cli('settings', 'set', 'rest.allow', '127.0.0.1'));
    await loginAt(`http://127.0.0.1:${overridden}`, 'admin', 'ports-pw');

    const chosen = await freePort();
    expectSuccess(await cli('settings', 'set', 'rest.port', String(chosen)));
    await loginOnceServed(chosen, 'REST on the port the user chose');
    // Said where the person who started pim reads it.
    await proc.waitFor(new RegExp(`REST API listening on http://127\\.0\\.0\\.1:${chosen}/api`));
    expectSuccess(await cli('settings', 'set', 'rest.enabled', 'false'));
    await proc.waitFor(/REST server stopped \(rest\.enabled is false\)/);
    expectSuccess(await cli('settings', 'set', 'rest.enabled', 'true'));
    expect(await refusesConnections(Number(overridden))).toBe(true);
    // Changed back to the value the start replaced: still the user's choice, not the override.
    expectSuccess(await cli('settings', 'set', 'rest.port', String(saved)));
    await loginOnceServed(saved, 'REST on the saved port the user chose again');
    expect(await refusesConnections(chosen)).toBe(true);
  });

  it('says once why an enabled REST server could not start, never that it is disabled', async () => {
    const [taken, ui] = [await freePort(), await freePort()];
    // Saved while free (`pim settings set` refuses a busy one), taken before pim starts.
    await prepare(taken, ui);
    await busyPort(taken);
    const proc = spawnCli(started.dataDir, ['start']);
    started.track(proc);
    await proc.waitFor(/pim is running/);
    const output = proc.output();
    expect(output).toMatch(new RegExp(`pim: the REST server could not start: port ${taken}.* in use`));
    expect(output).not.toMatch(/disabled/);
    expect(output.match(/REST server could not start/g)).toHaveLength(1);
  });

  it('without a window, ends with one line saying why the REST server could not start', async () => {
    const [taken, ui] = [await freePort(), await freePort()];
    // Saved while free (`pim settings set` refuses a busy one), taken before pim starts.
    await prepare(taken, ui);
    await busyPort(taken);
    const busy = await cli('start', '--no-ui');
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(
      new RegExp(
        `^pim: the REST server could not start: port ${taken} on 127\\.0\\.0\\.1 is in use by another program\n$`,
      ),
    );
    const named = await cli('start', '--no-ui', '--host', 'nosuch.invalid');
    expect(named.code).not.toBe(0);
    expect(named.stderr).toMatch(
      /pim: the REST server could not start: the address nosuch\.invalid cannot be bound: the host name is unknown\n$/,
    );
  });

  it('refuses a --host that the setting rest.host would refuse, with one line', async () => {
    const result = await cli('start', '--host', 'bad host');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("pim: --host must be an IP address or host name, not 'bad host'\n");
  });

  it("refuses a --port or --ui-port below 1024 (the settings' range; 0 means any free port), with one line", async () => {
    for (const [flag, value] of [
      ['--port', '80'],
      ['--port', '1023'],
      ['--port', '65536'],
      ['--ui-port', '443'],
    ] as const) {
      const result = await cli('start', '--no-ui', flag, value);
      expect(result.code, `${flag} ${value}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `pim: ${flag} must be 0 (any free port) or a whole number from 1024 to 65535, not '${value}'\n`,
      );
    }
  });
});
