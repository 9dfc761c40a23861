import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCatalogHeader } from '../../src/domain/catalogue/catalog-header.service.js';
import { listGroups } from '../../src/domain/groups/group.service.js';
import { getProductSheet } from '../../src/domain/products/product-sheet.service.js';
import { listProducts } from '../../src/domain/products/product.service.js';
import { importBmecat, type ImportOptions } from '../../src/interchange/bmecat/bmecat-import.js';
import { workspaceApplicationPerTest } from '../helpers/workspace-app.js';
import { BMECAT_SAMPLES, BMECAT_SAMPLE_FILES } from '../helpers/bmecat-samples.js';

/**
 * The BMEcat importer over the services, on the backend of the run: what a file holds arrives in
 * the product sheet, a refusal writes nothing, a dry run counts and writes nothing.
 */

const context = workspaceApplicationPerTest('pim-bmecat-import-', 'Import');

async function* bytesOf(text: string | Buffer): AsyncGenerator<Uint8Array> {
  yield typeof text === 'string' ? Buffer.from(text) : text;
}

/** The workspace's supplierPids, sorted. */
const supplierPids = async () =>
  (await listProducts(context.owner(), { all: true })).map((p) => p.supplierPid).sort();

const run = (xml: string | Buffer, options?: ImportOptions) =>
  importBmecat(context.owner(), bytesOf(xml), options);

async function sheetOf(supplierPid: string) {
  const product = (await listProducts(context.owner(), { all: true })).find(
    (p) => p.supplierPid === supplierPid,
  );
  expect(product, supplierPid).toBeDefined();
  return getProductSheet(context.owner(), product!.id);
}

function catalogue(body: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">' +
    '<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><CATALOG_ID>K</CATALOG_ID>' +
    `</CATALOG></HEADER><T_NEW_CATALOG>${body}</T_NEW_CATALOG></BMECAT>`
  );
}

const GROUPS =
  '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="node"><GROUP_ID>10</GROUP_ID><GROUP_NAME>Werkzeug</GROUP_NAME>' +
  '<PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE><CATALOG_STRUCTURE type="leaf"><GROUP_ID>11</GROUP_ID>' +
  '<GROUP_NAME>Bohrer</GROUP_NAME><PARENT_ID>10</PARENT_ID></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>';

const product = (pid: string, extra = '') =>
  `<PRODUCT><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Name ${pid}</DESCRIPTION_SHORT>` +
  `<DESCRIPTION_SHORT lang="eng">Name ${pid} en</DESCRIPTION_SHORT></PRODUCT_DETAILS>${extra}</PRODUCT>`;

const map = (pid: string, group: string) =>
  `<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>${pid}</PROD_ID><CATALOG_GROUP_ID>${group}</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>`;

describe('importing the shared Weidmüller samples', () => {
  it.each(BMECAT_SAMPLE_FILES)(
    '%s arrives in the product sheet with every part the reader found',
    async (file) => {
      const bytes = readFileSync(join(BMECAT_SAMPLES, file));
      const text = bytes.toString('utf8');
      const report = await run(bytes);
      expect(report).toMatchObject({ transaction: 'T_NEW_CATALOG', products: 1, created: 1, updated: 0 });
      const pid = /<SUPPLIER_PID>([^<]+)</.exec(text)![1]!;
      const sheet = await sheetOf(pid);
      expect(sheet.product.ean).toBe(/<EAN>([^<]+)</.exec(text)![1]);
      expect(sheet.manufacturerName).toBe('Weidmueller Group');
      expect(sheet.shortTexts.map((t) => t.lang)).toEqual(['deu', 'eng']);
      expect(sheet.features).toHaveLength(text.split('<FEATURE>').length - 1);
      expect(sheet.features.map((f) => f.ftidref)).toEqual(
        [...text.matchAll(/<FT_ID>([^<]+)<\/FT_ID>/g)].map((m) => m[1]),
      );
      expect(sheet.keywords).toHaveLength(text.split('<KEYWORD ').length - 1);
      expect(sheet.media).toHaveLength(1);
      expect(sheet.fragments.some((f) => f.xml.startsWith('<PRODUCT_PRICE_DETAILS>'))).toBe(true);
      // The header is kept for the export.
      expect((await getCatalogHeader(context.owner())).map((f) => f.place)).toContain('HEADER');
      // Imported again: the same product, updated, nothing doubled.
      expect(await run(bytes)).toMatchObject({ created: 0, updated: 1 });
      expect((await sheetOf(pid)).features).toHaveLength(sheet.features.length);
    },
  );
});

describe('a catalogue with groups, variants and mappings', () => {
  const file = catalogue(
    GROUPS +
      product(
        'V-1',
        '<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>M-1</PROD_ID_TO></PRODUCT_REFERENCE>',
      ) +
      product('M-1') +
      map('M-1', '11') +
      map('V-1', '11') +
      map('V-1', '10'),
  );

  it('creates the group tree once, with the file’s GROUP_IDs, and maps products to their groups in order', async () => {
    const report = await run(file);
    expect(report).toMatchObject({ products: 2, created: 2, groupsCreated: 2, skipped: [] });
    const groups = await listGroups(context.owner());
    expect(groups.map((g) => g.name).sort()).toEqual(['Bohrer', 'Werkzeug']);
    const variant = await sheetOf('V-1');
    expect(variant.product.masterProductId).toBe((await sheetOf('M-1')).product.id);
    expect(variant.groups.map((g) => [g.name, g.catalogGroupId])).toEqual([
      ['Bohrer', '11'],
      ['Werkzeug', '10'],
    ]);
    // A second import finds the groups by their GROUP_IDs.
    expect(await run(file)).toMatchObject({ groupsCreated: 0, created: 0, updated: 2 });
    expect(await listGroups(context.owner())).toHaveLength(2);
  });

  it('maps hundreds of products batch by batch, and a mapping of no product in a late batch writes nothing at all', async () => {
    const pids = Array.from({ length: 450 }, (_, i) => `P-${i}`);
    const body =
      GROUPS + pids.map((pid) => product(pid)).join('') + pids.map((pid) => map(pid, '11')).join('');
    expect(await run(catalogue(body))).toMatchObject({ products: 450, created: 450 });
    expect((await sheetOf('P-449')).groups.map((g) => g.catalogGroupId)).toEqual(['11']);
    // The same file again, moving P-0 (its first batch is written before the last is met) and its
    // last mapping naming a product it does not hold: refused whole, P-0 left as it was.
    const bad = catalogue(
      body
        .replace(map('P-0', '11'), map('P-0', '10'))
        .replace(map('P-449', '11'), map('P-449', '11') + map('NONE', '10')),
    );
    await expect(run(bad)).rejects.toThrow(
      "PRODUCT_TO_CATALOGGROUP_MAP names the product 'NONE', which the file does not hold",
    );
    expect((await sheetOf('P-0')).groups.map((g) => g.catalogGroupId)).toEqual(['11']);
  });

  it("gives the feature definitions the names the products' features carry (FNAME, FTEMPLATE/FT_NAME)", async () => {
    const feature = (ft: string, names: string) =>
      `<PRODUCT_FEATURES><FEATURE><FT_IDREF>${ft}</FT_IDREF>${names}<FVALUE>1</FVALUE></FEATURE></PRODUCT_FEATURES>`;
    await run(
      catalogue(
        product('N-1', feature('AAA001', '<FNAME lang="deu">Länge</FNAME><FNAME lang="eng">Length</FNAME>')) +
          // Another product names the same feature in a third language: merged, not replaced.
          product('N-2', feature('AAA001', '<FNAME lang="fra">Longueur</FNAME>')) +
          product(
            'N-3',
            '<PRODUCT_FEATURES><FEATURE><FTEMPLATE><FT_ID>BBB002</FT_ID><FT_NAME lang="deu">Breite</FT_NAME>' +
              '</FTEMPLATE><FVALUE>2</FVALUE></FEATURE></PRODUCT_FEATURES>',
          ),
      ),
    );
    const names = async (pid: string) => (await sheetOf(pid)).features.map((f) => [f.ftidref, f.names]);
    expect(await names('N-1')).toEqual([
      [
        'AAA001',
        [
          { lang: 'deu', value: 'Länge' },
          { lang: 'eng', value: 'Length' },
          { lang: 'fra', value: 'Longueur' },
        ],
      ],
    ]);
    expect(await names('N-3')).toEqual([['BBB002', [{ lang: 'deu', value: 'Breite' }]]]);
  });

  it('refuses a product whose feature name the definitions cannot take, writing nothing (or skips it)', async () => {
    const long = 'x'.repeat(2_000);
    const file = catalogue(
      product('OK-1') +
        product(
          'BAD-1',
          `<PRODUCT_FEATURES><FEATURE><FT_IDREF>CCC003</FT_IDREF><FNAME>${long}</FNAME><FVALUE>1</FVALUE></FEATURE></PRODUCT_FEATURES>`,
        ),
    );
    await expect(run(file)).rejects.toThrow(/names\[0\]\.name/);
    expect(await supplierPids()).toEqual([]);
    const report = await run(file, { continueOnError: true });
    expect(report.skipped.map((s) => s.supplierPid)).toEqual(['BAD-1']);
    expect(await supplierPids()).toEqual(['OK-1']);
  });

  it('counts in a dry run and writes nothing', async () => {
    const report = await run(file, { dryRun: true });
    expect(report).toMatchObject({ dryRun: true, products: 2, created: 2, groupsCreated: 2 });
    expect(await listProducts(context.owner(), { all: true })).toEqual([]);
    expect(await listGroups(context.owner())).toEqual([]);
  });
});

describe('bad input writes nothing', () => {
  it.each([
    [
      'a product without SUPPLIER_PID',
      catalogue(product('OK-1') + '<PRODUCT><PRODUCT_DETAILS/></PRODUCT>'),
      /SUPPLIER_PID/,
    ],
    ['a mapping to a group the file lacks', catalogue(product('OK-1') + map('OK-1', '99')), /group '99'/],
    [
      'a mapping to a product the file lacks',
      catalogue(GROUPS + product('OK-1') + map('NOPE', '11')),
      /'NOPE'/,
    ],
    [
      'an unknown language',
      catalogue(product('OK-1') + product('BAD-1').replace('lang="eng"', 'lang="xx1"')),
      /BAD-1/,
    ],
    ['a file cut short', catalogue(product('OK-1')).slice(0, -30), /not well-formed/],
  ])('%s: refused with its line and column, nothing written', async (_, xml, message) => {
    const error = await run(xml).then(
      () => undefined,
      (e: unknown) => e as { message: string; line: number; column: number },
    );
    expect(error?.message).toMatch(message);
    expect(error?.line).toBeGreaterThan(0);
    expect(error?.column).toBeGreaterThan(0);
    expect(await listProducts(context.owner(), { all: true })).toEqual([]);
    expect(await listGroups(context.owner())).toEqual([]);
  });

  it('with continueOnError skips a refused product and reports it, writing the others', async () => {
    const xml = catalogue(
      product('OK-1') + product('BAD-1').replace('lang="eng"', 'lang="xx1"') + product('OK-2'),
    );
    const report = await run(xml, { continueOnError: true });
    expect(report).toMatchObject({ products: 3, created: 2 });
    expect(report.skipped).toEqual([expect.objectContaining({ supplierPid: 'BAD-1', line: 1 })]);
    expect(await supplierPids()).toEqual(['OK-1', 'OK-2']);
  });
});

describe('T_UPDATE_PRODUCTS', () => {
  it('creates, updates and deletes by each PRODUCT’s mode', async () => {
    await run(catalogue(product('A') + product('B')));
    const update =
      '<?xml version="1.0"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG>' +
      '<LANGUAGE>deu</LANGUAGE></CATALOG></HEADER><T_UPDATE_PRODUCTS prev_version="1">' +
      product('A').replace('<PRODUCT>', '<PRODUCT mode="update">').replace('Name A<', 'Neu A<') +
      product('B').replace('<PRODUCT>', '<PRODUCT mode="delete">') +
      product('C').replace('<PRODUCT>', '<PRODUCT mode="new">') +
      '</T_UPDATE_PRODUCTS></BMECAT>';
    expect(await run(update)).toMatchObject({
      transaction: 'T_UPDATE_PRODUCTS',
      created: 1,
      updated: 1,
      deleted: 1,
    });
    expect((await listProducts(context.owner(), { all: true })).map((p) => [p.supplierPid, p.name])).toEqual([
      ['A', 'Neu A'],
      ['C', 'Name C'],
    ]);
  });
});

/** A T_UPDATE_PRODUCTS or T_UPDATE_PRICES file. */
const update = (transaction: string, body: string) =>
  '<?xml version="1.0"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005"><HEADER><CATALOG>' +
  `<LANGUAGE>deu</LANGUAGE></CATALOG></HEADER><${transaction}>${body}</${transaction}></BMECAT>`;

describe('T_UPDATE_PRODUCTS mappings', () => {
  it('add and remove groups of stored products by each mapping’s mode, with GROUP_IDs a catalogue gave before', async () => {
    await run(catalogue(GROUPS + product('A') + product('B') + map('A', '11')));
    const report = await run(
      update(
        'T_UPDATE_PRODUCTS',
        // B is not in this file: the workspace holds it.
        product('C').replace('<PRODUCT>', '<PRODUCT mode="new">') +
          '<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>B</PROD_ID><CATALOG_GROUP_ID>10</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>' +
          '<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>A</PROD_ID><CATALOG_GROUP_ID>10</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>' +
          '<PRODUCT_TO_CATALOGGROUP_MAP mode="delete"><PROD_ID>A</PROD_ID><CATALOG_GROUP_ID>11</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>' +
          '<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>C</PROD_ID><CATALOG_GROUP_ID>11</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>',
      ),
    );
    expect(report).toMatchObject({ created: 1, skipped: [] });
    const groupsOf = async (pid: string) => (await sheetOf(pid)).groups.map((g) => g.catalogGroupId);
    expect(await groupsOf('A')).toEqual(['10']);
    expect(await groupsOf('B')).toEqual(['10']);
    expect(await groupsOf('C')).toEqual(['11']);
  });

  it('refuses a mapping of a product neither the file nor the workspace holds, writing nothing', async () => {
    await run(catalogue(GROUPS + product('A')));
    const file = update(
      'T_UPDATE_PRODUCTS',
      product('D').replace('<PRODUCT>', '<PRODUCT mode="new">') +
        '<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>Z</PROD_ID><CATALOG_GROUP_ID>10</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>',
    );
    await expect(run(file)).rejects.toThrow(
      "PRODUCT_TO_CATALOGGROUP_MAP names the product 'Z', which neither the file nor the workspace holds",
    );
    expect(await supplierPids()).toEqual(['A']);
  });
});

describe('T_UPDATE_PRICES', () => {
  const price = (amount: string) =>
    `<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>${amount}</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>`;

  it('replaces the prices of stored products and leaves everything else', async () => {
    await run(
      catalogue(
        GROUPS +
          product(
            'A',
            price('1.00') +
              '<PRODUCT_LOGISTIC_DETAILS><COUNTRY_OF_ORIGIN>DE</COUNTRY_OF_ORIGIN></PRODUCT_LOGISTIC_DETAILS>',
          ) +
          map('A', '11'),
      ),
    );
    const before = await sheetOf('A');
    const report = await run(
      update(
        'T_UPDATE_PRICES',
        `<PRODUCT mode="update"><SUPPLIER_PID>A</SUPPLIER_PID>${price('2.50')}${price('2.00')}</PRODUCT>`,
      ),
    );
    expect(report).toMatchObject({ transaction: 'T_UPDATE_PRICES', products: 1, updated: 1, created: 0 });
    const after = await sheetOf('A');
    expect(after.fragments.map((f) => f.xml)).toEqual([
      '<PRODUCT_LOGISTIC_DETAILS><COUNTRY_OF_ORIGIN>DE</COUNTRY_OF_ORIGIN></PRODUCT_LOGISTIC_DETAILS>',
      price('2.50'),
      price('2.00'),
    ]);
    expect(after.shortTexts).toEqual(before.shortTexts);
    expect(after.groups).toEqual(before.groups);
  });

  it('refuses a product the workspace does not hold (nothing written), or skips it with continueOnError', async () => {
    await run(catalogue(product('A', price('1.00'))));
    const file = update(
      'T_UPDATE_PRICES',
      `<PRODUCT><SUPPLIER_PID>A</SUPPLIER_PID>${price('3.00')}</PRODUCT>\n<PRODUCT><SUPPLIER_PID>NOPE</SUPPLIER_PID>${price('1.00')}</PRODUCT>`,
    );
    await expect(run(file)).rejects.toMatchObject({
      message: "Product 'NOPE': T_UPDATE_PRICES names the product 'NOPE', which the workspace does not hold",
      line: 2,
    });
    expect((await sheetOf('A')).fragments.map((f) => f.xml)).toEqual([price('1.00')]);
    const report = await run(file, { continueOnError: true });
    expect(report.skipped).toEqual([
      expect.objectContaining({ supplierPid: 'NOPE', code: 'PRODUCT_NOT_FOUND', line: 2 }),
    ]);
    expect((await sheetOf('A')).fragments.map((f) => f.xml)).toEqual([price('3.00')]);
  });
});

describe('replace', () => {
  it('leaves exactly the file’s catalogue: other products (with their variants) and groups go', async () => {
    await run(
      catalogue(
        GROUPS +
          product('KEEP') +
          product('OLD') +
          product(
            'OLD-V',
            '<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>OLD</PROD_ID_TO></PRODUCT_REFERENCE>',
          ) +
          map('KEEP', '11'),
      ),
    );
    const newGroups =
      '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="leaf"><GROUP_ID>11</GROUP_ID><GROUP_NAME>Bohrer</GROUP_NAME>' +
      '<PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>';
    const file = catalogue(newGroups + product('KEEP') + product('NEW') + map('NEW', '11'));
    expect(await run(file, { mode: 'replace', dryRun: true })).toMatchObject({
      created: 1,
      updated: 1,
      deleted: 2,
      groupsDeleted: 1,
    });
    expect(await supplierPids()).toEqual(['KEEP', 'OLD', 'OLD-V']);
    expect(await run(file, { mode: 'replace' })).toMatchObject({
      created: 1,
      updated: 1,
      deleted: 2,
      groupsDeleted: 1,
    });
    expect(await supplierPids()).toEqual(['KEEP', 'NEW']);
    expect((await listGroups(context.owner())).map((g) => g.name)).toEqual(['Bohrer']);
  });

  it('refuses replace for a T_UPDATE_PRODUCTS file, writing nothing', async () => {
    const update =
      '<?xml version="1.0"?><BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>' +
      `<T_UPDATE_PRODUCTS>${product('A')}</T_UPDATE_PRODUCTS></BMECAT>`;
    await expect(run(update, { mode: 'replace' })).rejects.toThrow(/replace applies to a whole catalogue/);
    expect(await listProducts(context.owner(), { all: true })).toEqual([]);
  });
});
