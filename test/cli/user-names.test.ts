import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storageChoice } from '../../src/db/database-config.js';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await newDataDir();
});
afterEach(() => removeDataDir(dataDir));

const addUser = (name: string) =>
  runCliAsync(dataDir, ['user', 'add', name, '--role', 'VIEWER', '--password-stdin'], {
    stdin: 'name-test-password\n',
  });

/**
 * Gives a user a name no version of pim accepts any longer, as data from an older version holds
 * it: the one case where a test writes to the database itself, since no interface can create it.
 */
async function renameStoredUser(from: string, to: string): Promise<void> {
  const choice = storageChoice(dataDir);
  if (choice.kind === 'sqlite') {
    const db = new Database(join(dataDir, 'system.sqlite'));
    try {
      db.prepare('UPDATE user SET username = ? WHERE username = ?').run(to, from);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: choice.url });
  await client.connect();
  try {
    await client.query('UPDATE pim."user" SET username = $1 WHERE username = $2', [to, from]);
  } finally {
    await client.end();
  }
}

describe('pim user add: names', () => {
  it('refuses a terminal escape, a zero-width space and fullwidth letters with one line, adding nobody', async () => {
    for (const [name, message] of [
      ['a\u001b[31mred', /invisible or control character U\+001B/],
      ['a\u200bb', /U\+200B/],
      ['\uff21\uff24\uff2d\uff29\uff2e', /plain characters \('ADMIN'\)/],
    ] as const) {
      const result = await addUser(name);
      expectOneLineError(result, message);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain('\u001b');
    }
    expect((await runCliAsync(dataDir, ['user', 'list'])).stdout).toBe('');
  });

  it('stores "é" decomposed as composed, so the other form is the same user', async () => {
    expectSuccess(await addUser('e\u0301d'));
    expectOneLineError(await addUser('\u00e9d'), /already exists/);
    expect((await runCliAsync(dataDir, ['user', 'list'])).stdout).toBe('1\t\u00e9d\tVIEWER\tfalse\t-\n');
    expectSuccess(await runCliAsync(dataDir, ['user', 'disable', 'e\u0301d']));
  });
});

describe('names stored by older versions', () => {
  it('are listed with control characters escaped, still log in, and block look-alike new names', async () => {
    expectSuccess(await addUser('red'));
    expectSuccess(await addUser('old'));
    await renameStoredUser('red', 'a\u001b[31mred\tx');
    await renameStoredUser('old', 'e\u0301x');

    const list = await runCliAsync(dataDir, ['user', 'list']);
    expectSuccess(list);
    expect(list.stdout).toBe('1\ta\\u{1b}[31mred\\u{9}x\tVIEWER\tfalse\t-\n2\te\u0301x\tVIEWER\tfalse\t-\n');
    expectOneLineError(await addUser('\u00e9x'), /already exists/);

    expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
    const server = await startServer({ dataDir });
    try {
      for (const name of ['a\u001b[31mred\tx', 'e\u0301x']) {
        const login = await server.request<{ username: string }>('POST', '/api/auth/login', {
          body: { username: name, password: 'name-test-password' },
        });
        expect(login.status, JSON.stringify(name)).toBe(200);
        expect(login.body.data!.username).toBe(name);
      }
    } finally {
      await server.stop();
    }
  });
});
