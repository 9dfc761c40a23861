import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';

/** Which data folder a command works on, and what it says when that cannot be one. */
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pim-data-dir-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('--data-dir', () => {
  it('refuses an empty value with one line (exit 2) instead of using PIM_DATA_DIR', async () => {
    const fallback = join(root, 'from-env');
    for (const value of ['', ' ']) {
      const result = await runCliAsync(undefined, ['--data-dir', value, 'user', 'list'], {
        env: { PIM_DATA_DIR: fallback },
      });
      expectOneLineError(result, /--data-dir needs a folder; it is empty/);
      expect(result.code).toBe(2);
    }
    expect(existsSync(fallback)).toBe(false);
  });

  it('a folder that does not exist: commands that only read or change refuse it, creating nothing', async () => {
    const typo = join(root, 'typo', 'path');
    for (const args of [
      ['user', 'list'],
      ['user', 'passwd', 'admin', '--password-stdin'],
      ['user', 'disable', 'admin'],
      ['workspace', 'list'],
      ['settings', 'get'],
      ['mcp', '--user', 'admin'],
      ['db', 'move', '--to', 'postgres://127.0.0.1:1/none'],
    ]) {
      const result = await runCliAsync(typo, args, { stdin: 'a-password\n' });
      expectOneLineError(result, new RegExp(`the data folder ${typo} does not exist`));
      expect(result.code, args.join(' ')).toBe(1);
    }
    expect(readdirSync(root)).toEqual([]);
  });

  it('a folder that does not exist: user add and settings set create it (the README script)', async () => {
    const fresh = join(root, 'srv', 'pim');
    expectSuccess(
      await runCliAsync(fresh, ['user', 'add', 'api', '--role', 'EDITOR', '--password-stdin'], {
        stdin: 'pw\n',
      }),
    );
    const list = await runCliAsync(fresh, ['user', 'list']);
    expectSuccess(list);
    expect(list.stdout).toMatch(/^1\tapi\tEDITOR/);
    expectSuccess(await runCliAsync(join(root, 'other'), ['settings', 'set', 'rest.port', '9000']));
  });

  it('a file where the data folder should be: one line saying so, for every command', async () => {
    const file = join(root, 'not-a-folder');
    writeFileSync(file, 'x');
    for (const args of [
      ['user', 'list'],
      ['settings', 'set', 'rest.port', '9000'],
      ['start', '--no-ui'],
    ]) {
      const result = await runCliAsync(file, args);
      expectOneLineError(result, new RegExp(`the data folder ${file} is not a folder$`));
    }
    const below = await runCliAsync(join(file, 'data'), ['user', 'list']);
    expectOneLineError(below, /a part of its path is a file/);
  });

  it('a folder the file system will not create (under /proc, even for root): one line, exit 1, at once', async () => {
    // Node's own recursive mkdir retried such a folder for ever: pim start hung, busy.
    const results = await Promise.all(
      [
        ['start', '--no-ui', '--port', '0'],
        ['settings', 'set', 'rest.port', '9000'],
        ['user', 'add', 'api', '--role', 'EDITOR', '--password-stdin'],
      ].map(async (args) => ({
        args,
        result: await runCliAsync('/proc/pim-probe/data', args, { stdin: 'pw\n' }),
      })),
    );
    for (const { args, result } of results) {
      expectOneLineError(result, /^pim: the data folder \/proc\/pim-probe\/data cannot be created: \S/);
      expect(result.code, args.join(' ')).toBe(1);
    }
  }, 40_000);
});
