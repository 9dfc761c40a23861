import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError } from '../helpers/expect-cli.js';
import { removeDir, tempDir } from '../helpers/temp.js';

const parent = tempDir();
const dataDir = join(parent, 'data');
afterAll(() => removeDir(parent));

describe.concurrent('pim --help', () => {
  const cases: [string[], RegExp][] = [
    [['--help'], /^Usage: pim \[--data-dir DIR\] <command>/],
    [['-h'], /^Usage: pim \[--data-dir DIR\] <command>/],
    [['help'], /^Usage: pim \[--data-dir DIR\] <command>/],
    [['start', '--help'], /^Usage: pim start/],
    [['user', '--help'], /^Usage: pim user <add\|list\|set-role\|passwd\|disable\|enable\|logout>/],
    [['user', 'add', '--help'], /^Usage: pim user add NAME --role/],
    [['user', 'list', '--help'], /^Usage: pim user list/],
    [['workspace', '--help'], /^Usage: pim workspace <create\|list\|header>/],
    [['workspace', 'header', '--help'], /^Usage: pim workspace header \[--workspace NAME\]/],
    [['workspace', 'create', '--help'], /^Usage: pim workspace create NAME/],
    [['workspace', 'list', '--help'], /^Usage: pim workspace list/],
    [['settings', '--help'], /^Usage: pim settings <set\|get>/],
    [['settings', 'set', '--help'], /^Usage: pim settings set KEY VALUE/],
    [['settings', 'get', '-h'], /^Usage: pim settings get/],
    [['db', '--help'], /^Usage: pim db move --to postgres:\/\//],
    [['db', 'move', '--help'], /^Usage: pim db move --to postgres:\/\/[^]*Stop pim first/],
    [['import', '--help'], /^Usage: pim import FILE [^]*nothing is\nwritten/],
  ];
  it.each(cases)('pim %j prints its usage and exits 0', async (args, usage) => {
    const result = await runCliAsync(dataDir, args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(usage);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('the main help names every command', async () => {
    const result = await runCliAsync(dataDir, ['--help']);
    for (const command of ['start', 'user', 'workspace', 'settings', 'db', 'import']) {
      expect(result.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('the main help and pim settings --help name every key pim settings get prints', async () => {
    const settingsDir = join(parent, 'settings');
    mkdirSync(settingsDir);
    const [all, main, settings] = await Promise.all([
      runCliAsync(settingsDir, ['settings', 'get']),
      runCliAsync(dataDir, ['--help']),
      runCliAsync(dataDir, ['settings', '--help']),
    ]);
    const keys = all.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('=')[0]!);
    expect(keys).toContain('rest.allow');
    for (const key of keys) {
      expect(main.stdout, key).toContain(key);
      expect(settings.stdout, key).toContain(key);
    }
  });

  it('an unknown command or subcommand gives one line on stderr and exit code 2', async () => {
    const [unknown, unknownSub, unknownOption, badPort] = await Promise.all([
      runCliAsync(dataDir, ['frobnicate']),
      runCliAsync(dataDir, ['user', 'delete', 'bob']),
      runCliAsync(dataDir, ['settings', 'get', '--verbose']),
      runCliAsync(dataDir, ['start', '--port', 'abc']),
    ]);
    expectOneLineError(unknown, /frobnicate/);
    expect(unknown.code).toBe(2);
    expectOneLineError(unknownSub, /delete/);
    expect(unknownSub.code).toBe(2);
    expectOneLineError(unknownOption, /verbose/);
    expect(unknownOption.code).toBe(2);
    expectOneLineError(badPort, /port/);
    expect(badPort.code).toBe(2);
  });

  it('an option with a value given twice is refused with one line (exit 2), not taken as the last one', async () => {
    const cases: [string[], string][] = [
      [['user', 'add', 'v5', '--role', 'VIEWER', '--role', 'ADMIN', '--password-stdin'], '--role'],
      [['db', 'move', '--to', 'postgres://127.0.0.1:1/a', '--to=postgres://127.0.0.1:1/b'], '--to'],
      [['workspace', 'create', 'W', '--path', join(parent, 'a'), '--path', join(parent, 'b')], '--path'],
      [['start', '--no-ui', '--host', '127.0.0.1', '--host', 'bad host'], '--host'],
      [['--data-dir', join(parent, 'other'), 'user', 'list'], '--data-dir'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCliAsync(dataDir, args, { stdin: 'pw\n' })));
    results.forEach((result, i) => {
      const [args, option] = cases[i]!;
      expectOneLineError(result, new RegExp(`^pim: ${option} given twice`));
      expect(result.code, args.join(' ')).toBe(2);
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('--data-dir without its folder (nor a command) gives one line, not the usage, and exit code 2', async () => {
    const result = await runCliAsync(undefined, ['--data-dir'], { env: { PIM_DATA_DIR: dataDir } });
    expectOneLineError(result, /^pim: Option '--data-dir <value>' argument missing/);
    expect(result.code).toBe(2);
  });

  it('without a command prints the usage and exits 2', async () => {
    const [bare, onlyDataDir] = await Promise.all([
      runCliAsync(undefined, [], { env: { PIM_DATA_DIR: dataDir } }),
      runCliAsync(dataDir, []),
    ]);
    for (const result of [bare, onlyDataDir]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toMatch(/^Usage: pim/);
    }
  });
});
