import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';

/** The data folder's system.sqlite when its owner cannot, or chose not to, let pim write it. */
let dataDir: string;
let file: string;
beforeEach(async () => {
  dataDir = await newDataDir();
  file = join(dataDir, 'system.sqlite');
  expectSuccess(
    await runCliAsync(dataDir, ['user', 'add', 'boss', '--role', 'ADMIN', '--password-stdin'], {
      stdin: 'pw\n',
    }),
  );
});
afterEach(() => {
  chmodSync(file, 0o600);
  removeDataDir(dataDir);
});

const mode = () => statSync(file).mode & 0o777;
const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('system.sqlite', () => {
  it('read-only (mode 0444): refused with one line naming it, its mode and content left alone', async () => {
    chmodSync(file, 0o444);
    const before = digest();
    for (const args of [
      ['user', 'list'],
      ['user', 'disable', 'boss'],
      ['settings', 'set', 'rest.port', '9000'],
    ]) {
      const result = await runCliAsync(dataDir, args);
      expectOneLineError(result, new RegExp(`the system database ${file} is read-only \\(mode 0444\\)`));
      expect(result.code).toBe(1);
    }
    expect(mode()).toBe(0o444);
    expect(digest()).toBe(before);

    chmodSync(file, 0o644);
    expectSuccess(await runCliAsync(dataDir, ['user', 'list']));
    expect(mode()).toBe(0o600); // group and others lose their bits, as before
  });

  it('unreadable (mode 0000): one line naming the file and the cause', async () => {
    chmodSync(file, 0o000);
    const result = await runCliAsync(dataDir, ['user', 'list']);
    expectOneLineError(result, new RegExp(`the system database ${file} cannot be read: permission denied`));
    expect(mode()).toBe(0o000);
  });
});
