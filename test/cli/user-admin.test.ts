import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { statusAfterSessionsEnded } from '../helpers/sessions-ended.js';

/** `pim user set-role | passwd | disable | enable | logout` and the list's new columns. */

let dataDir: string;
beforeEach(async () => {
  dataDir = await newDataDir();
  for (const [name, role] of [
    ['boss', 'ADMIN'],
    ['api', 'EDITOR'],
  ]) {
    expectSuccess(
      await user('add', name!, '--role', role!, '--password-stdin', { stdin: `${name}-password\n` }),
    );
  }
  // For the tests that start the application on this folder.
  expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
});
afterEach(() => removeDataDir(dataDir));

function user(...args: Array<string | { stdin: string }>) {
  const options = typeof args.at(-1) === 'object' ? (args.pop() as { stdin: string }) : {};
  return runCliAsync(dataDir, ['user', ...(args as string[])], options);
}

async function listLines(): Promise<string[][]> {
  const list = await user('list');
  expectSuccess(list);
  return list.stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split('\t'));
}

describe('pim user set-role', () => {
  it('changes the role, refuses unknown roles, users and the last ADMIN with one line on stderr (exit 1)', async () => {
    const changed = await user('set-role', 'api', 'VIEWER');
    expectSuccess(changed);
    expect(changed.stdout).toBe('User api is now VIEWER\n');
    expect((await listLines()).map((l) => l.slice(1, 3))).toEqual([
      ['boss', 'ADMIN'],
      ['api', 'VIEWER'],
    ]);

    const [unknownRole, unknownUser, lastAdmin] = await Promise.all([
      user('set-role', 'api', 'KING'),
      user('set-role', 'nobody', 'VIEWER'),
      user('set-role', 'boss', 'EDITOR'),
    ]);
    expectOneLineError(unknownRole, /^pim: role 'KING' is unknown; use one of ADMIN, EDITOR, VIEWER$/);
    expectOneLineError(unknownUser, /^pim: User 'nobody' not found$/);
    expectOneLineError(lastAdmin, /^pim: User 'boss' is the last enabled ADMIN and cannot be demoted/);
    for (const result of [unknownRole, unknownUser, lastAdmin]) expect(result.code).toBe(1);

    expectSuccess(await user('set-role', 'API', 'ADMIN'));
    expectSuccess(await user('set-role', 'boss', 'EDITOR'));
    expect((await listLines()).map((l) => l[2])).toEqual(['EDITOR', 'ADMIN']);
  });

  it('takes the role as pim user add does, --role ROLE, too', async () => {
    const changed = await user('set-role', 'api', '--role', 'VIEWER');
    expectSuccess(changed);
    expect(changed.stdout).toBe('User api is now VIEWER\n');
    expectSuccess(await user('set-role', '--role', 'ADMIN', 'api'));
    expect((await listLines()).map((l) => l.slice(1, 3))).toEqual([
      ['boss', 'ADMIN'],
      ['api', 'ADMIN'],
    ]);
    expectOneLineError(
      await user('set-role', 'api', '--role', 'KING'),
      /^pim: role 'KING' is unknown; use one of ADMIN, EDITOR, VIEWER$/,
    );
    expect((await user('set-role', '--help')).stdout).toContain(
      'pim user set-role NAME --role ADMIN|EDITOR|VIEWER',
    );
  });
});

describe('pim user passwd', () => {
  it('sets the password from the first line of stdin; the old one no longer logs in', async () => {
    const changed = await user('passwd', 'api', '--password-stdin', { stdin: 'new secret\nignored\n' });
    expectSuccess(changed);
    expect(changed.stdout).toBe('Password of api changed\n');
    const empty = await user('passwd', 'api', '--password-stdin', { stdin: '\n' });
    expectOneLineError(empty, /password must not be empty/);
    expect(empty.code).toBe(1);

    const server = await startServer({ dataDir });
    try {
      const login = (password: string) =>
        server.request('POST', '/api/auth/login', { body: { username: 'api', password } });
      expect((await login('api-password')).status).toBe(401);
      expect((await login('new secret')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('pim user disable, enable and logout', () => {
  it('disable ends the sessions of a running application and refuses logins; enable lets the user in again', async () => {
    // No settings poll during the test: the next request must notice the change by itself.
    const server = await startServer({ dataDir, settingsPollMs: 600_000 });
    try {
      const login = () =>
        server.request<{ token: string }>('POST', '/api/auth/login', {
          body: { username: 'api', password: 'api-password' },
        });
      const token = (await login()).body.data!.token;
      expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);

      const disabled = await user('disable', 'api');
      expectSuccess(disabled);
      expect(disabled.stdout).toBe('User api disabled; their sessions have ended\n');
      // The very next request of the running application refuses the token.
      expect((await server.request('GET', '/api/workspace', { token })).status).toBe(401);
      expect((await login()).body).toMatchObject({ code: 'USER_DISABLED', error: "User 'api' is disabled" });
      const lines = await listLines();
      expect(lines[1]!.slice(1, 4)).toEqual(['api', 'EDITOR', 'true']);
      expect(lines[1]![4]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(lines[0]!.slice(3)).toEqual(['false', '-']);

      const enabled = await user('enable', 'api');
      expectSuccess(enabled);
      expect(enabled.stdout).toBe('User api enabled\n');
      expect((await login()).status).toBe(200);
      // The tokens ended by disabling stay ended.
      expect((await server.request('GET', '/api/workspace', { token })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('disable refuses the last enabled ADMIN and unknown users', async () => {
    const [last, unknown] = await Promise.all([user('disable', 'boss'), user('enable', 'nobody')]);
    expectOneLineError(last, /^pim: User 'boss' is the last enabled ADMIN and cannot be disabled/);
    expectOneLineError(unknown, /^pim: User 'nobody' not found$/);
    expect((await listLines()).map((l) => l[3])).toEqual(['false', 'false']);
  });

  it('logout ends every session of the user in a running application and says how many', async () => {
    const server = await startServer({ dataDir, settingsPollMs: 600_000 });
    try {
      const tokens = [];
      for (let i = 0; i < 2; i++) {
        tokens.push(
          (
            await server.request<{ token: string }>('POST', '/api/auth/login', {
              body: { username: 'api', password: 'api-password' },
            })
          ).body.data!.token,
        );
      }
      const boss = await server.login('boss', 'boss-password');
      for (const token of tokens)
        expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);

      const ended = await user('logout', 'API');
      expectSuccess(ended);
      expect(ended.stdout).toBe('Ended 2 sessions of api, and every pim mcp connection of theirs\n');
      for (const token of tokens) {
        const status = await statusAfterSessionsEnded(
          async () => (await server.request('GET', '/api/workspace', { token })).status,
        );
        expect(status).toBe(401);
      }
      expect((await server.request('GET', '/api/workspace', { token: boss })).status).toBe(200);
      expect((await user('logout', 'api')).stdout).toBe(
        'Ended 0 sessions of api, and every pim mcp connection of theirs\n',
      );
    } finally {
      await server.stop();
    }
  });
});
