import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

/** Passwords from standard input: only what a login can send is stored. */
describe('pim user add and passwd: the password on stdin', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await newDataDir();
  });
  afterEach(() => removeDataDir(dataDir));

  const user = (args: string[], stdin: string | Buffer) => runCliAsync(dataDir, ['user', ...args], { stdin });
  const listed = async () => (await runCliAsync(dataDir, ['user', 'list'])).stdout;

  it('refuses U+0000, which no login accepts, with one line (exit 1), creating and changing nobody', async () => {
    expectSuccess(await user(['add', 'keeper', '--role', 'ADMIN', '--password-stdin'], 'keeper-password\n'));
    const added = await user(['add', 'nuluser', '--role', 'VIEWER', '--password-stdin'], 'a\u0000b\n');
    expectOneLineError(added, /password must not contain the character U\+0000/);
    expect(added.code).toBe(1);
    const changed = await user(['passwd', 'keeper', '--password-stdin'], 'a\u0000b\n');
    expectOneLineError(changed, /password must not contain the character U\+0000/);
    expect(changed.code).toBe(1);
    expect(await listed()).toBe('1\tkeeper\tADMIN\tfalse\t-\n');

    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    const server = await startServer({ dataDir });
    try {
      const login = await server.request('POST', '/api/auth/login', {
        body: { username: 'keeper', password: 'keeper-password' },
      });
      expect(login.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD', async () => {
    for (const bytes of [Buffer.from([0xff, 0x0a]), Buffer.from('ok\xe9\n', 'latin1')]) {
      const added = await user(['add', 'badbytes', '--role', 'VIEWER', '--password-stdin'], bytes);
      expectOneLineError(added, /standard input is not valid UTF-8/);
      expect(added.code).toBe(1);
    }
    expect(await listed()).toBe('');
    expectSuccess(await user(['add', 'keeper', '--role', 'ADMIN', '--password-stdin'], 'keeper-password\n'));
    const changed = await user(['passwd', 'keeper', '--password-stdin'], Buffer.from([0x61, 0xc3, 0x0a]));
    expectOneLineError(changed, /not valid UTF-8/);

    // Later lines are not the password: bytes there do not matter.
    expectSuccess(
      await user(
        ['add', 'umlaut', '--role', 'VIEWER', '--password-stdin'],
        Buffer.concat([Buffer.from('pässwörd\r\n'), Buffer.from([0xff])]),
      ),
    );
    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    const server = await startServer({ dataDir });
    try {
      const login = (username: string, password: string) =>
        server.request('POST', '/api/auth/login', { body: { username, password } });
      expect((await login('umlaut', 'pässwörd')).status).toBe(200);
      expect((await login('keeper', 'keeper-password')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
