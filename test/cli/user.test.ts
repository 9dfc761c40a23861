import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

describe('pim user', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await newDataDir();
  });
  afterEach(() => removeDataDir(dataDir));

  const addUser = (name: string, role: string, stdin: string) =>
    runCliAsync(dataDir, ['user', 'add', name, '--role', role, '--password-stdin'], { stdin });

  it('adds users (password: the first line of stdin without its line ending), lists them, and they log in over HTTP', async () => {
    const first = await addUser('api', 'EDITOR', 'pa ss:wörd\r\nsecond line\n');
    expectSuccess(first);
    expect(first.stdout).toMatch(/api/);
    const [noNewline, enable] = await Promise.all([
      addUser('script', 'VIEWER', 'no-newline-secret'),
      runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']),
    ]);
    expectSuccess(noNewline);
    expectSuccess(enable);

    const list = await runCliAsync(dataDir, ['user', 'list']);
    expectSuccess(list);
    expect(list.stdout).toBe('1\tapi\tEDITOR\tfalse\t-\n2\tscript\tVIEWER\tfalse\t-\n');

    const server = await startServer({ dataDir });
    try {
      const login = (username: string, password: string) =>
        server.request<{ username: string; role: string }>('POST', '/api/auth/login', {
          body: { username, password },
        });
      const ok = await login('api', 'pa ss:wörd');
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ username: 'api', role: 'EDITOR' });
      expect((await login('script', 'no-newline-secret')).body.data).toMatchObject({ role: 'VIEWER' });
      expect((await login('api', 'pa ss:wörd\r')).status).toBe(401);
      expect((await login('api', 'pa ss:wörd\r\nsecond line')).status).toBe(401);
      expect((await login('api', 'second line')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('refuses an unknown role, a duplicate name and an empty password with one line on stderr, adding nobody', async () => {
    expectSuccess(await addUser('alice', 'ADMIN', 'a-password\n'));
    const [unknownRole, duplicate, duplicateOtherCase, emptyLine, emptyInput, noStdinFlag] =
      await Promise.all([
        addUser('carol', 'KING', 'c-password\n'),
        addUser('alice', 'EDITOR', 'other-password\n'),
        addUser('ALICE', 'EDITOR', 'other-password\n'),
        addUser('dave', 'EDITOR', '\nsecond-line\n'),
        addUser('erin', 'EDITOR', ''),
        runCliAsync(dataDir, ['user', 'add', 'frank', '--role', 'EDITOR'], { stdin: 'pw\n' }),
      ]);
    expectOneLineError(unknownRole, /role/i);
    expectOneLineError(duplicate, /exists/);
    expectOneLineError(duplicateOtherCase, /exists/);
    expectOneLineError(emptyLine, /password/);
    expectOneLineError(emptyInput, /password/);
    expectOneLineError(noStdinFlag, /password-stdin/);
    const list = await runCliAsync(dataDir, ['user', 'list']);
    expect(list.stdout).toBe('1\talice\tADMIN\tfalse\t-\n');
  });
});
