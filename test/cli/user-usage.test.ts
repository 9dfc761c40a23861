import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

/**
 * `pim user`'s usage and help: answered from the command line alone, before any storage is
 * opened, so they run on SQLite only (vitest.config.ts SQLITE_ONLY).
 */

let dataDir: string;
beforeEach(async () => {
  dataDir = await newDataDir();
});
afterEach(() => removeDataDir(dataDir));

function user(...args: string[]) {
  return runCliAsync(dataDir, ['user', ...args]);
}

describe('usage', () => {
  it('a missing or extra argument or a misplaced option answers one line and exit code 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['disable'], /^pim: pim user disable needs NAME$/],
      [['set-role', 'api'], /^pim: pim user set-role needs ROLE$/],
      [['set-role'], /^pim: pim user set-role needs NAME and ROLE$/],
      [['set-role', '--role', 'VIEWER'], /^pim: pim user set-role needs NAME$/],
      [
        ['set-role', 'api', 'EDITOR', '--role', 'VIEWER'],
        /^pim: pim user set-role takes the role once: NAME ROLE or NAME --role ROLE$/,
      ],
      [['enable', 'api', 'extra'], /^pim: unexpected argument 'extra'$/],
      [['logout', 'api', '--role', 'ADMIN'], /^pim: pim user logout takes no --role$/],
      [['list', '--password-stdin'], /^pim: pim user list takes no --password-stdin$/],
      [['passwd', 'api'], /^pim: pim user passwd needs --password-stdin/],
      [['rename', 'api'], /^pim: unknown command 'user rename'/],
    ];
    const results = await Promise.all(cases.map(([args]) => user(...args)));
    results.forEach((result, i) => {
      expectOneLineError(result, cases[i]![1]);
      expect(result.code, cases[i]![0].join(' ')).toBe(2);
    });
  });

  it('the help names every subcommand, and each has its own', async () => {
    const help = await user('--help');
    expectSuccess(help);
    for (const sub of ['add', 'list', 'set-role', 'passwd', 'disable', 'enable', 'logout']) {
      expect(help.stdout).toContain(`pim user ${sub}`);
      const own = await user(sub, '--help');
      expect(own.stdout).toMatch(new RegExp(`^Usage: pim user ${sub}`));
    }
    expect((await user('list', '--help')).stdout).toMatch(/disabled \(true or false\)/);
  });
});
