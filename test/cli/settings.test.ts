import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { freePort } from '../helpers/http.js';

describe('pim settings', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await newDataDir();
  });
  afterEach(() => removeDataDir(dataDir));

  const settings = (...args: string[]) => runCliAsync(dataDir, ['settings', ...args]);

  it('has the spec defaults: REST disabled, port 8765, host 127.0.0.1; the window on 127.0.0.1:8764', async () => {
    const all = await settings('get');
    expectSuccess(all);
    expect(all.stdout).toBe(
      'rest.enabled=false\nrest.port=8765\nrest.host=127.0.0.1\nrest.allow=\nui.host=127.0.0.1\nui.port=8764\n',
    );
    const port = await settings('get', 'rest.port');
    expectSuccess(port);
    expect(port.stdout).toBe('8765\n');
  });

  it('stores what set was given and get reads it back, the port range ends included', async () => {
    const set = await settings('set', 'rest.port', '1024');
    expectSuccess(set);
    expect(set.stdout).toBe('rest.port=1024\n');
    expect((await settings('get', 'rest.port')).stdout).toBe('1024\n');
    expectSuccess(await settings('set', 'rest.port', '65535'));
    expectSuccess(await settings('set', 'rest.enabled', 'true'));
    // Reachable from other machines by anyone: stored, with a warning on stderr.
    const exposed = await settings('set', 'rest.host', '0.0.0.0');
    expect(exposed.code).toBe(0);
    expect(exposed.stderr).toMatch(/^pim: warning: .*rest\.allow is empty/);
    expectSuccess(await settings('set', 'rest.allow', '10.0.0.0/8'));
    expectSuccess(await settings('set', 'ui.port', '9001'));
    expect((await settings('get')).stdout).toBe(
      'rest.enabled=true\nrest.port=65535\nrest.host=0.0.0.0\nrest.allow=10.0.0.0/8\nui.host=127.0.0.1\nui.port=9001\n',
    );
    expect((await settings('set', 'ui.port', '80')).stderr).toMatch(
      /ui\.port must be a whole number from 1024 to 65535/,
    );
    // The window served beyond this machine: stored, with its own warning; back on loopback, none.
    const windowExposed = await settings('set', 'ui.host', '0.0.0.0');
    expect(windowExposed.code).toBe(0);
    expect(windowExposed.stderr).toMatch(
      /^pim: warning: the application window binds to 0\.0\.0\.0, .*ui\.host 127\.0\.0\.1\n$/,
    );
    expect((await settings('set', 'ui.host', '127.0.0.1')).stderr).toBe('');
  });

  it('reads a host saved before the host rules tightened as it was saved, and refuses to set it again', async () => {
    expectSuccess(await settings('get'));
    // What an earlier version stored for `pim settings set rest.host host.123` (refused since).
    const system = new Database(join(dataDir, 'system.sqlite'));
    system
      .prepare("INSERT INTO setting (key, value) VALUES ('rest.host', ?), ('ui.host', ?)")
      .run(JSON.stringify('host.123'), JSON.stringify('1.2.3'));
    system.close();
    const all = await settings('get');
    expectSuccess(all);
    expect(all.stdout).toContain('rest.host=host.123\n');
    expect(all.stdout).toContain('ui.host=1.2.3\n');
    expectSuccess(await settings('set', 'rest.port', '9000'));
    expectOneLineError(
      await settings('set', 'rest.host', 'host.123'),
      /rest\.host must be an IP address or host name, not 'host\.123'/,
    );
    expectSuccess(await settings('set', 'rest.host', '127.0.0.1'));
    expect((await settings('get', 'rest.host')).stdout).toBe('127.0.0.1\n');
  });

  it('refuses ports outside 1024..65535, unknown keys and bad values with one line, storing nothing', async () => {
    expectSuccess(await settings('set', 'rest.port', '9000'));
    const [low, high, notNumber, notBoolean, unknownSet, unknownGet] = await Promise.all([
      settings('set', 'rest.port', '1023'),
      settings('set', 'rest.port', '65536'),
      settings('set', 'rest.port', 'abc'),
      settings('set', 'rest.enabled', 'yes'),
      settings('set', 'rest.nonsense', '1'),
      settings('get', 'rest.nonsense'),
    ]);
    for (const port of [low, high, notNumber]) expectOneLineError(port, /rest\.port.*1024.*65535/);
    expectOneLineError(notBoolean, /rest\.enabled/);
    expectOneLineError(unknownSet, /rest\.nonsense/);
    expectOneLineError(unknownGet, /rest\.nonsense/);
    expect((await settings('get')).stdout).toBe(
      'rest.enabled=false\nrest.port=9000\nrest.host=127.0.0.1\nrest.allow=\nui.host=127.0.0.1\nui.port=8764\n',
    );
  });

  it('refuses a port or host that cannot be bound now, as the window does, and stores nothing', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      // Disabled, the REST server listens nowhere: its port is saved unprobed.
      expectSuccess(await settings('set', 'rest.port', String(taken)));
      const busy = new RegExp(`^pim: Port ${taken} on 127\\.0\\.0\\.1 is in use by another program$`);
      expectOneLineError(await settings('set', 'rest.enabled', 'true'), busy);
      // The window's server always listens: its port is probed whatever rest.enabled says.
      expectOneLineError(await settings('set', 'ui.port', String(taken)), busy);
      const free = await freePort();
      expectSuccess(await settings('set', 'rest.port', String(free)));
      expectSuccess(await settings('set', 'rest.enabled', 'true'));
      expectOneLineError(await settings('set', 'rest.port', String(taken)), busy);
      expectOneLineError(
        await settings('set', 'rest.host', 'nosuch.invalid'),
        new RegExp(`^pim: Port ${free} on nosuch\\.invalid cannot be bound: the host name is unknown$`),
      );
      expect((await settings('get')).stdout).toBe(
        `rest.enabled=true\nrest.port=${free}\nrest.host=127.0.0.1\nrest.allow=\nui.host=127.0.0.1\nui.port=8764\n`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
