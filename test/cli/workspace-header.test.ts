import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { newDataDir, removeDataDir } from '../helpers/backend.js';
import { bmecatSample } from '../helpers/bmecat-samples.js';
import { schemaProblems } from '../helpers/bmecat-export.js';

/**
 * `pim workspace header`: the ids and names a BMEcat export writes in its HEADER (issue 35 point
 * 9: "supplier and catalogue ids from workspace settings (editable)"), in a workspace without a
 * kept HEADER and in one imported from a supplier's file, whose HEADER they change in place.
 */
let dataDir: string;
beforeAll(async () => {
  dataDir = await newDataDir();
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Fresh']));
  expectSuccess(await runCliAsync(dataDir, ['workspace', 'create', 'Kept']));
  const sample = bmecatSample('WEI_BMECat_1609801044.xml');
  expect((await runCliAsync(dataDir, ['import', sample, '--workspace', 'Kept'])).code).toBe(0);
});
afterAll(() => removeDataDir(dataDir));

const headerOf = (xml: string) => /<HEADER>.*<\/HEADER>/s.exec(xml)?.[0] ?? '';
const exported = async (workspace: string) => {
  const result = await runCliAsync(dataDir, ['export', '-', '--workspace', workspace, '--format', '2005.1']);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

describe('pim workspace header', () => {
  it('sets the HEADER of a workspace that has none, prints every field, and the export validates', async () => {
    const set = await runCliAsync(dataDir, [
      ...['workspace', 'header', '--workspace', 'Fresh', '--catalog-id', 'CAT-7'],
      ...['--catalog-version', '2.1', '--supplier-name', 'Beispiel GmbH'],
      ...['--supplier-id', '4012345000009', '--supplier-id-type', 'gln'],
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(
      'catalog-id\tCAT-7\ncatalog-version\t2.1\ncatalog-name\t(not set)\n' +
        'supplier-name\tBeispiel GmbH\nsupplier-id\t4012345000009\nsupplier-id-type\tgln\n',
    );
    const xml = await exported('Fresh');
    const header = headerOf(xml);
    expect(header).toContain('<CATALOG_ID>CAT-7</CATALOG_ID><CATALOG_VERSION>2.1</CATALOG_VERSION>');
    // Not set: the workspace's name stands in.
    expect(header).toContain('<CATALOG_NAME>Fresh</CATALOG_NAME>');
    expect(header).toContain(
      '<SUPPLIER><SUPPLIER_ID type="gln">4012345000009</SUPPLIER_ID><SUPPLIER_NAME>Beispiel GmbH</SUPPLIER_NAME></SUPPLIER>',
    );
    expect(await schemaProblems(xml)).toBe('');
  });

  it('changes an imported HEADER in place, keeping the rest, and an empty value brings the file’s back', async () => {
    const before = headerOf(await exported('Kept'));
    expect(before).toContain('<CATALOG_ID>1</CATALOG_ID>');
    const set = await runCliAsync(dataDir, [
      ...['workspace', 'header', '--workspace', 'Kept'],
      ...['--catalog-id', 'WM-2026', '--supplier-name', 'Weidmüller'],
    ]);
    expect(set.code, set.stderr).toBe(0);
    const xml = await exported('Kept');
    const after = headerOf(xml);
    expect(after.match(/<CATALOG_ID>/g)).toHaveLength(1);
    expect(after).toContain('<CATALOG_ID>WM-2026</CATALOG_ID>');
    expect(after).toContain('<SUPPLIER_NAME>Weidmüller</SUPPLIER_NAME>');
    // The file's version and the supplier's address stay as the file had them.
    expect(after).toContain('<CATALOG_VERSION>111.1</CATALOG_VERSION>');
    expect(after).toContain('<ADDRESS type="supplier">');
    expect(await schemaProblems(xml)).toBe('');

    const cleared = await runCliAsync(dataDir, [
      'workspace',
      'header',
      '--workspace',
      'Kept',
      '--catalog-id',
      '',
    ]);
    expect(cleared.stdout).toContain('catalog-id\t(not set)\n');
    expect(cleared.stdout).toContain('supplier-name\tWeidmüller\n');
    expect(headerOf(await exported('Kept'))).toContain('<CATALOG_ID>1</CATALOG_ID>');
  });

  it('refuses a value over BMEcat’s limits or of the wrong form, changing nothing', async () => {
    expectOneLineError(
      await runCliAsync(dataDir, [
        ...['workspace', 'header', '--workspace', 'Fresh', '--catalog-name', 'Neu'],
        ...['--catalog-id', 'X'.repeat(21)],
      ]),
      /catalogId \(CATALOG_ID\) has at most 20 characters, this one 21/,
    );
    expectOneLineError(
      await runCliAsync(dataDir, ['workspace', 'header', '--workspace', 'Fresh', '--catalog-version', '2']),
      /catalogVersion \(CATALOG_VERSION\) must look like 1\.0, not '2'/,
    );
    const now = await runCliAsync(dataDir, ['workspace', 'header', '--workspace', 'Fresh']);
    expect(now.stdout).toContain('catalog-id\tCAT-7\ncatalog-version\t2.1\ncatalog-name\t(not set)\n');
  });
});
