import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { bmecatSample, featureCatalogue } from '../helpers/bmecat-samples.js';

/**
 * `pim import FILE`: a BMEcat file into the open workspace or a named one, as a user runs it;
 * what arrived is read back through REST.
 */
const SAMPLE = bmecatSample('WEI_BMECat_7760056069.xml');

let dataDir: string;
beforeEach(async () => {
  dataDir = await newDataDir();
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Main']));
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Other']));
  expectSuccess(
    await runCliAsync(dataDir, ['user', 'add', 'admin', '--role', 'ADMIN', '--password-stdin'], {
      stdin: 'admin-password-1\n',
    }),
  );
  expectSuccess(await runCliAsync(dataDir, ['settings', 'set', 'rest.enabled', 'true']));
});
afterEach(() => removeDataDir(dataDir));

/** The supplierPids of a workspace, through REST on a server started on the data folder. */
async function supplierPids(workspace: string): Promise<string[]> {
  const server: TestServer = await startServer({ dataDir });
  try {
    const token = await server.login();
    const list = await server.request<{ id: number; name: string }[]>('GET', '/api/workspace', { token });
    const id = list.body.data!.find((w) => w.name === workspace)!.id;
    await server.request('POST', '/api/workspace/open', { token, body: { workspaceId: id } });
    const products = await server.request<{ supplierPid: string }[]>('GET', '/api/product?all=true', {
      token,
    });
    return products.body.data!.map((p) => p.supplierPid).sort();
  } finally {
    await server.stop();
  }
}

describe('pim import', () => {
  it('imports a supplier file into the named workspace only, and says what it did', async () => {
    const result = await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Other']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      `imported ${SAMPLE} (T_NEW_CATALOG) into workspace Other: 1 products (1 created, 0 updated, 0 deleted), 0 groups created\n`,
    );
    // Not a terminal: the progress comes as plain lines on standard error.
    expect(result.stderr).toMatch(/^read \d+ %\n(read \d+ %\n)*$/);
    expect(result.stderr).toContain('read 100 %\n');
    expect(await supplierPids('Other')).toEqual(['7760056069']);
    expect(await supplierPids('Main')).toEqual([]);
  });

  it('a dry run says what would change and writes nothing', async () => {
    const result = await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Main', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^dry run of .* nothing written: would import 1 products \(1 created/);
    expect(await supplierPids('Main')).toEqual([]);
  });

  it('refuses a bad file with its line and column, writing nothing', async () => {
    const file = join(dataDir, 'bad.xml');
    writeFileSync(
      file,
      '<?xml version="1.0"?>\n<BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>\n' +
        '<T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>OK</SUPPLIER_PID></PRODUCT>\n<PRODUCT><PRODUCT_DETAILS/></PRODUCT>' +
        '</T_NEW_CATALOG></BMECAT>\n',
    );
    const result = await runCliAsync(dataDir, ['import', file, '--workspace', 'Main']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^pim: .*bad\.xml:4:1: A PRODUCT without SUPPLIER_PID: every product needs one$/m,
    );
    expect(result.stderr).toMatch(/^pim: nothing was imported \(job \d+\)$/m);
    expect(await supplierPids('Main')).toEqual([]);
  });

  it('parses a file of a megabyte or more in a worker thread: every product arrives, a bad one is named by line', async () => {
    // 1,100 products of ten features: about 1.1 MB, past PARSE_IN_WORKER_FROM_BYTES (1 MiB).
    const big = join(dataDir, 'big.xml');
    writeFileSync(big, featureCatalogue(1_100));
    const result = await runCliAsync(dataDir, ['import', big, '--workspace', 'Main']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: 1100 products \(1100 created, 0 updated, 0 deleted\)/);
    const pids = await supplierPids('Main');
    expect(pids).toHaveLength(1_100);
    expect(pids).toContain('J-1099');

    const bad = join(dataDir, 'bad-big.xml');
    // Line 1,003 of the file: the XML declaration, the header line, then a product a line from J-0.
    writeFileSync(bad, featureCatalogue(1_100).replace('<SUPPLIER_PID>J-1000</SUPPLIER_PID>', ''));
    const refused = await runCliAsync(dataDir, ['import', bad, '--workspace', 'Other']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/bad-big\.xml:1003:1: A PRODUCT without SUPPLIER_PID/);
    expect(await supplierPids('Other')).toEqual([]);
  });

  it('with --mode replace leaves exactly the file’s catalogue in the workspace', async () => {
    const other = join(dataDir, 'other.xml');
    writeFileSync(
      other,
      '<?xml version="1.0"?><BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>' +
        '<T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>GONE</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Weg' +
        '</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT></T_NEW_CATALOG></BMECAT>',
    );
    expect((await runCliAsync(dataDir, ['import', other, '--workspace', 'Main'])).code).toBe(0);
    const result = await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Main', '--mode', 'replace']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/1 products \(1 created, 0 updated, 1 deleted\)/);
    expect(await supplierPids('Main')).toEqual(['7760056069']);
  });

  it('answers usage mistakes in one line: no file, a missing file, no open workspace, an unknown mode', async () => {
    expectOneLineError(await runCliAsync(dataDir, ['import']), /^pim: pim import needs a BMEcat file$/);
    expectOneLineError(await runCliAsync(dataDir, ['import', join(dataDir, 'nope.xml')]), /ENOENT/);
    expectOneLineError(await runCliAsync(dataDir, ['import', SAMPLE]), /no workspace is open/);
    expectOneLineError(
      await runCliAsync(dataDir, ['import', SAMPLE, '--mode', 'mirror']),
      /--mode is merge or replace, not 'mirror'/,
    );
    expectOneLineError(await runCliAsync(dataDir, ['import', SAMPLE, '--workspace', 'Nope']), /Nope/);
  });

  it('imports a spreadsheet by its extension or --format, and names a bad cell by file, row and column', async () => {
    const csv = join(dataDir, 'products.csv');
    writeFileSync(csv, 'supplierPid,short[deu]\r\nCLI-1,Bohrer\r\nCLI-2,Säge\r\n');
    const dry = await runCliAsync(dataDir, ['import', csv, '--workspace', 'Other', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would import 2 rows (2 created, 0 changed, 0 unchanged)');
    const done = await runCliAsync(dataDir, ['import', csv, '--workspace', 'Other']);
    expect(done.stdout).toContain('into workspace Other: 2 rows (2 created, 0 changed, 0 unchanged)');
    const text = join(dataDir, 'products.txt');
    writeFileSync(text, 'supplierPid;short[deu]\r\nCLI-1;Bohrer\r\nCLI-3;\r\nCLI-1;x\r\n');
    expectOneLineError(
      await runCliAsync(dataDir, ['import', text, '--workspace', 'Other', '--format', 'xml']),
      /--format is bmecat, csv or xlsx/,
    );
    const failed = await runCliAsync(dataDir, ['import', text, '--workspace', 'Other', '--format', 'csv']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `pim: ${text}:4:1: row 4, column A (supplierPid): supplierPid 'CLI-1' is the key of an earlier row`,
    );
    const skipping = await runCliAsync(dataDir, [
      'import',
      text,
      '--workspace',
      'Other',
      '--format',
      'csv',
      '--continue-on-error',
    ]);
    expect(skipping.code, skipping.stderr).toBe(0);
    expect(skipping.stderr).toContain(`pim: ${text}:4:1: skipped row 4:`);
    expect(skipping.stdout).toContain('3 rows (1 created, 0 changed, 1 unchanged, 1 skipped)');
    expect(await supplierPids('Other')).toEqual(['CLI-1', 'CLI-2', 'CLI-3']);
  });
});
