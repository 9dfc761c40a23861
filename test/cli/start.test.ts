import { request as httpRequest, Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  PRODUCTION_HASHES,
  runCliAsync,
  spawnCli,
  startCli,
  type SpawnedProcess,
  type StartedProcess,
} from '../helpers/cli.js';
import { expectSuccess } from '../helpers/expect-cli.js';
import { apiRequest, loginAt, refusesConnections } from '../helpers/http.js';
import { processesPerTest } from '../helpers/started-processes.js';

type Running = Pick<StartedProcess, 'child' | 'exited' | 'output'>;

/**
 * Sends a login over a connection the server already knows, and the signal the moment the
 * request has left this process: the request is in flight (argon2id at the production cost takes
 * tens of ms; prepare() stores such a hash) when the
 * shutdown begins.
 */
async function loginWhileSignalled(
  proc: Running,
  baseUrl: string,
  credentials: { username: string; password: string },
  signal: NodeJS.Signals,
): Promise<{ status: number; body: string }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, body?: string, onSent?: () => void) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${baseUrl}${path}`,
        { method, agent, headers: body ? { 'content-type': 'application/json' } : {} },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      if (onSent) req.on('finish', onSent);
      req.end(body);
    });
  try {
    expect((await send('GET', '/warm-up')).status).toBe(404);
    return await send('POST', '/api/auth/login', JSON.stringify(credentials), () => proc.child.kill(signal));
  } finally {
    agent.destroy();
  }
}

describe('pim start', () => {
  const started = processesPerTest();
  const { track } = started;
  const cli = (...args: string[]) => runCliAsync(started.dataDir, args);

  async function prepare(): Promise<void> {
    expectSuccess(
      // The production cost keeps the login under way while the signal arrives.
      await runCliAsync(started.dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'admin-pw\n',
        env: PRODUCTION_HASHES,
      }),
    );
    expectSuccess(await cli('settings', 'set', 'rest.enabled', 'true'));
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'shuts down gracefully on %s: the running request completes, exit code 0, "stopped"',
    async (signal) => {
      await prepare();
      const proc = track(await startCli(started.dataDir));
      const res = await loginWhileSignalled(
        proc,
        proc.baseUrl,
        { username: 'admin', password: 'admin-pw' },
        signal,
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ success: true, data: { username: 'admin' } });
      expect(await proc.exited).toBe(0);
      expect(proc.output()).toMatch(new RegExp(`${signal} received`));
      expect(proc.output()).toMatch(/pim: stopped\n/);
      expect(await refusesConnections(Number(new URL(proc.baseUrl).port))).toBe(true);

      if (signal === 'SIGTERM') {
        // Nothing was lost: the session of the completed login is valid after a restart.
        const token = (JSON.parse(res.body) as { data: { token: string } }).data.token;
        const again = track(await startCli(started.dataDir));
        const list = await apiRequest(again.baseUrl, 'GET', '/api/workspace', { token });
        expect(list.status).toBe(200);
      }
    },
  );

  it('on a pristine data folder sets up admin, the Demo workspace (open) and REST, and says how to use and stop it', async () => {
    const proc = track(await startCli(started.dataDir, { PIM_ADMIN_PASSWORD: 'first-run-pw' }));
    await proc.waitFor(/pim is running/);
    const output = proc.output();
    expect(output).toMatch(/admin/);
    expect(output).toContain(`REST API listening on ${proc.baseUrl}/api`);
    expect(output).toContain(`curl -s -X POST ${proc.baseUrl}/api/auth/login`);
    expect(output).toMatch(/Authorization: Bearer/);
    expect(output).toMatch(/pim settings set rest\.enabled false/);
    expect(output).not.toContain('first-run-pw');

    const token = await loginAt(proc.baseUrl, 'admin', 'first-run-pw');
    const list = await apiRequest<{ name: string; active: boolean }[]>(
      proc.baseUrl,
      'GET',
      '/api/workspace',
      {
        token,
      },
    );
    expect(list.body.data!.filter((w) => w.active).map((w) => w.name)).toEqual(['Demo']);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    const settings = await cli('settings', 'get');
    expect(settings.stdout).toBe(
      'rest.enabled=true\nrest.port=8765\nrest.host=127.0.0.1\nrest.allow=\nui.host=127.0.0.1\nui.port=8764\n',
    );
  });

  it('on first run without PIM_ADMIN_PASSWORD prints a random admin password that works', async () => {
    const proc = track(await startCli(started.dataDir, { PIM_ADMIN_PASSWORD: '' }));
    const [, password] = /Password:\s+(\S+)/.exec(proc.output()) ?? [];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(12);
    await loginAt(proc.baseUrl, 'admin', password!);
  });

  it.each([
    ['a user exists', ['user', 'add', 'someone', '--role', 'VIEWER', '--password-stdin']],
    ['a setting is stored', ['settings', 'set', 'rest.port', '9999']],
  ])('does no first-run setup when %s: REST stays disabled', async (_label, args) => {
    expectSuccess(await runCliAsync(started.dataDir, args, { stdin: 'someone-pw\n' }));
    const proc: SpawnedProcess = track(
      spawnCli(started.dataDir, ['start', '--port', '0', '--ui-port', '0'], { PIM_ADMIN_PASSWORD: 'x-pw' }),
    );
    await proc.waitFor(/REST server is disabled/);
    expect(proc.output()).not.toMatch(/first start|listening/i);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    const [users, enabled] = await Promise.all([cli('user', 'list'), cli('settings', 'get', 'rest.enabled')]);
    expect(users.stdout).not.toMatch(/admin/);
    expect(enabled.stdout).toBe('false\n');
  });
});
