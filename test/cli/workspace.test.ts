import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { startServer } from '../helpers/server.js';
import { newDataDir, removeDataDir, TEST_BACKEND, workspaceMeta } from '../helpers/backend.js';
import { removeDir, tempDir } from '../helpers/temp.js';

describe('pim workspace', () => {
  let dataDir: string;
  let outside: string;
  beforeEach(async () => {
    dataDir = await newDataDir();
    outside = tempDir('pim-test-ws-');
  });
  afterEach(async () => {
    await removeDataDir(dataDir);
    removeDir(outside);
  });

  const workspace = (...args: string[]) => runCliAsync(dataDir, ['workspace', ...args]);
  const defaultLanguageOf = (folder: string) => workspaceMeta(dataDir, folder, 'default_language');

  it('creates a workspace folder with its own database under the data folder, default language deu', async () => {
    const created = await workspace('create', 'Catalogue');
    expectSuccess(created);
    expect(created.stdout).toMatch(/Catalogue/);
    const folder = join(dataDir, 'workspaces', 'catalogue');
    expect(statSync(folder).isDirectory()).toBe(true);
    // On PostgreSQL the catalogue is a schema of the shared database; the folder stays, for files.
    expect(existsSync(join(folder, 'workspace.sqlite'))).toBe(TEST_BACKEND === 'sqlite');
    expect(await defaultLanguageOf(folder)).toBe('deu');
    const list = await workspace('list');
    expectSuccess(list);
    expect(list.stdout).toBe(`1\tCatalogue\t${folder}\n`);
  });

  it('creates a workspace at --path (new or empty folder) with --language in its stored form', async () => {
    const fresh = join(outside, 'new', 'nested');
    const empty = join(outside, 'empty');
    mkdirSync(empty);
    expectSuccess(await workspace('create', 'English', '--path', fresh, '--language', 'ENG'));
    expectSuccess(await workspace('create', 'German', '--path', empty, '--language', 'ger'));
    expect(await defaultLanguageOf(fresh)).toBe('eng');
    expect(await defaultLanguageOf(empty)).toBe('deu');
    expect((await workspace('list')).stdout).toBe(`1\tEnglish\t${fresh}\n2\tGerman\t${empty}\n`);
  });

  it('marks the open workspace in the list', async () => {
    expectSuccess(await workspace('create', 'First'));
    const prepared = await Promise.all([
      workspace('create', 'Second'),
      runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']),
      runCliAsync(dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'pw-admin\n',
      }),
    ]);
    prepared.forEach(expectSuccess);
    expect((await workspace('list')).stdout).not.toMatch(/open/);
    const server = await startServer({ dataDir });
    try {
      const token = await server.login('admin', 'pw-admin');
      const opened = await server.request('POST', '/api/workspace/open', {
        token,
        body: { workspaceName: 'Second' },
      });
      expect(opened.status).toBe(200);
      const list = await workspace('list');
      expectSuccess(list);
      const lines = list.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^1\tFirst\t\S+$/);
      expect(lines[1]).toMatch(/^2\tSecond\t\S+\topen$/);
    } finally {
      await server.stop();
    }
  });

  it('refuses a taken path, a file, a duplicate name and an unknown language with one line, creating nothing', async () => {
    expectSuccess(await workspace('create', 'Existing'));
    const notEmpty = join(outside, 'not-empty');
    mkdirSync(notEmpty);
    writeFileSync(join(notEmpty, 'keep.txt'), 'x');
    const file = join(outside, 'a-file');
    writeFileSync(file, 'x');
    const unknownLanguageFolder = join(outside, 'never');
    const [taken, isFile, duplicate, duplicateElsewhere, badLanguage] = await Promise.all([
      workspace('create', 'Taken', '--path', notEmpty),
      workspace('create', 'File', '--path', file),
      workspace('create', 'EXISTING'),
      workspace('create', 'Existing', '--path', join(outside, 'elsewhere')),
      workspace('create', 'Klingon', '--path', unknownLanguageFolder, '--language', 'xyz'),
    ]);
    expectOneLineError(taken, /not an empty folder/);
    expectOneLineError(isFile, /not an empty folder/);
    expectOneLineError(duplicate, /already exists/);
    expectOneLineError(duplicateElsewhere, /already exists/);
    expectOneLineError(badLanguage, /xyz/);
    expect(readdirSync(notEmpty)).toEqual(['keep.txt']);
    expect(existsSync(join(outside, 'elsewhere'))).toBe(false);
    expect(existsSync(unknownLanguageFolder)).toBe(false);
    expect((await workspace('list')).stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses an empty --path with one line (exit 2) instead of using the default folder', async () => {
    for (const value of ['', ' ']) {
      const result = await workspace('create', 'Empty', '--path', value);
      expectOneLineError(result, /^pim: --path needs a folder; it is empty$/);
      expect(result.code).toBe(2);
    }
    expect(existsSync(join(dataDir, 'workspaces'))).toBe(false);
    expect((await workspace('list')).stdout).toBe('');
  });

  it('refuses a --path the file system will not create (under /proc) with one line, at once', async () => {
    const result = await workspace('create', 'Proc', '--path', '/proc/pim-probe/ws');
    expectOneLineError(
      result,
      /^pim: The folder \/proc\/pim-probe\/ws for workspace 'Proc' cannot be created: \S/,
    );
    expect(result.code).toBe(1);
    expect((await workspace('list')).stdout).toBe('');
  }, 40_000);
});
