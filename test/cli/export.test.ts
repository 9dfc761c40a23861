import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { bmecatSample } from '../helpers/bmecat-samples.js';
import { schemaProblems } from '../helpers/bmecat-export.js';

/** `pim export FILE|-`: the workspace as a BMEcat file, as a user runs it. */
const SAMPLE = bmecatSample('WEI_BMECat_1609801044.xml');

// One data folder for the file: the tests only read workspace Main (the one that imports creates
// a workspace of its own), and each writes to a file of its own.
let dataDir: string;
beforeAll(async () => {
  dataDir = await newDataDir();
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Main']));
  // Its progress lines go to standard error.
  expect((await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Main'])).code).toBe(0);
});
afterAll(() => removeDataDir(dataDir));

describe('pim export', () => {
  it('writes the workspace into a file that validates against BMEcat 2005.1, and says what it wrote', async () => {
    const file = join(dataDir, 'whole.xml');
    writeFileSync(file, 'an older export');
    const result = await runCliAsync(dataDir, ['export', file, '--workspace', 'Main', '--format', '2005.1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      `exported workspace Main to ${file} (BMEcat 2005.1): 1 products (0 variants), 0 groups\n`,
    );
    const xml = readFileSync(file, 'utf8');
    expect(xml).toContain('<SUPPLIER_PID>1609801044</SUPPLIER_PID>');
    expect(await schemaProblems(xml)).toBe('');
    // No partial file is left beside it.
    expect(readdirSync(dataDir).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('streams to standard output with -, in the languages asked for', async () => {
    const result = await runCliAsync(dataDir, ['export', '-', '--workspace', 'Main', '--languages', 'eng']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005"')).toBe(
      true,
    );
    expect(result.stdout).toContain('<DESCRIPTION_SHORT lang="eng">');
    expect(result.stdout).not.toContain('lang="deu"');
    expect(result.stdout.endsWith('</BMECAT>\n')).toBe(true);
  });

  it('with --strict, a value over BMEcat’s limits fails the export and leaves the file as it was', async () => {
    const long = join(dataDir, 'long.xml');
    writeFileSync(
      long,
      '<?xml version="1.0"?><BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>' +
        `<T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>${'L'.repeat(33)}</SUPPLIER_PID><PRODUCT_DETAILS>` +
        '<DESCRIPTION_SHORT>Lang</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT></T_NEW_CATALOG></BMECAT>',
    );
    expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Strict']));
    expect((await runCliAsync(dataDir, ['import', long, '--workspace', 'Strict'])).code).toBe(0);
    const file = join(dataDir, 'strict.xml');
    writeFileSync(file, 'kept');
    const strict = await runCliAsync(dataDir, ['export', file, '--workspace', 'Strict', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`SUPPLIER_PID is 33 characters, over BMEcat's 32 (--strict)`);
    expect(strict.stderr).toMatch(/^pim: no file was written \(job \d+\)$/m);
    expect(readFileSync(file, 'utf8')).toBe('kept');
    // Without --strict the problem is listed and the file written.
    const loose = await runCliAsync(dataDir, ['export', file, '--workspace', 'Strict']);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toBe(
      `pim: product ${'L'.repeat(33)} SUPPLIER_PID is 33 characters, over BMEcat's 32\n`,
    );
    expect(loose.stdout).toContain(', 1 problems (standard error)');
    expect(existsSync(file) && readFileSync(file, 'utf8').includes('L'.repeat(33))).toBe(true);
  });

  it('answers usage mistakes in one line', async () => {
    expectOneLineError(
      await runCliAsync(dataDir, ['export']),
      /^pim: pim export needs a file to write, or - for standard output$/,
    );
    expectOneLineError(await runCliAsync(dataDir, ['export', '-']), /no workspace is open/);
    expectOneLineError(
      await runCliAsync(dataDir, ['export', '-', '--workspace', 'Main', '--format', '2006']),
      /^pim: --format: /,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', '-', '--workspace', 'Main', '--group', 'drills']),
      /--group is a group's id \(a number\), not 'drills'/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', '-', '--workspace', 'Main', '--group', '77']),
      /77/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['export', '-', '--workspace', 'Main', '--languages', 'xx']),
      /xx/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, [
        'export',
        join(dataDir, 'no', 'such', 'folder.xml'),
        '--workspace',
        'Main',
      ]),
      /folder\.xml: its folder does not exist/,
    );
  });
});
