import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineFeature } from '../../src/domain/features/feature.service.js';
import { createGroup } from '../../src/domain/groups/group.service.js';
import { upsertProducts } from '../../src/domain/products/product-bulk.service.js';
import { importBmecat } from '../../src/interchange/bmecat/bmecat-import.js';
import { BMECAT_SAMPLES, BMECAT_SAMPLE_FILES } from '../helpers/bmecat-samples.js';
import { catalogueOf, exportText, otherWorkspace, schemaProblems } from '../helpers/bmecat-export.js';
import { workspaceApplicationPerTest } from '../helpers/workspace-app.js';

/**
 * The BMEcat exporter over the services, on the backend of the run: an export validates against the
 * BMEcat 2005.1 schema, and importing it into an empty workspace gives the same catalogue.
 */

const context = workspaceApplicationPerTest('pim-bmecat-export-', 'Export');

async function* bytesOf(text: string | Buffer): AsyncGenerator<Uint8Array> {
  yield typeof text === 'string' ? Buffer.from(text) : text;
}

/**
 * Exports the open workspace, checks it against the schema, imports it into a new workspace and
 * compares. The schema may refuse only what the export reported (a real file's value over BMEcat's
 * length limits, which pim keeps as it came).
 */
async function roundTrip(format: '2005' | '2005.1') {
  const { xml, report } = await exportText(context.owner(), { format });
  const refused = [
    ...(await schemaProblems(xml)).matchAll(
      /\}(\w+)': \[facet 'maxLength'\] The value has a length of '(\d+)'/g,
    ),
  ];
  expect(refused.map((m) => `${m[1]} is ${m[2]} characters`).sort()).toEqual(
    report.problems.map((p) => p.message.replace(/, over BMEcat's \d+$/, '')).sort(),
  );
  if (refused.length === 0) expect(await schemaProblems(xml)).toBe('');
  const copy = await otherWorkspace(context.app(), `Copy ${format}`);
  await importBmecat(copy, bytesOf(xml));
  expect(await catalogueOf(copy)).toEqual(await catalogueOf(context.owner()));
  return { xml, report };
}

describe('exporting the shared Weidmüller samples', () => {
  it.each(BMECAT_SAMPLE_FILES)(
    '%s: imported, exported as 2005.1, valid against the schema and imported again alike',
    async (file) => {
      await importBmecat(context.owner(), bytesOf(readFileSync(join(BMECAT_SAMPLES, file))));
      const { xml, report } = await roundTrip('2005.1');
      expect(report).toMatchObject({ format: '2005.1', products: 1, variants: 0 });
      expect(xml).toContain('<BMECAT version="2005.1" xmlns="http://www.bmecat.org/bmecat/2005.1">');
      // The supplier's header comes back, with today's generation date.
      expect(xml).toContain('<GENERATOR_INFO>Weidmueller XSLT</GENERATOR_INFO>');
      expect(xml).toMatch(/<GENERATION_DATE>\d{4}-\d\d-\d\dT/);
      // Kept content (the price) is written back, and no placeholder price beside it.
      expect(xml).toContain('<PRODUCT_PRICE_DETAILS>');
      expect(xml).not.toContain('price_type="on_request"');
    },
  );
});

/** A catalogue built through the services with every part the model has. */
async function buildCatalogue() {
  const ctx = context.owner();
  const tools = await createGroup(ctx, { name: 'Werkzeug' });
  const drills = await createGroup(ctx, { name: 'Bohrer', parentId: tools.id });
  await createGroup(ctx, { name: 'Drills', language: 'eng', parentId: tools.id });
  const results = await upsertProducts(ctx, [
    {
      supplierPid: 'M-1',
      ean: '4008190397111',
      manufacturerPid: 'MP 1',
      manufacturerName: 'Acme & Söhne',
      orderUnit: 'MTR',
      contentUnit: 'MTR',
      shortTexts: [
        { lang: 'deu', value: 'Bohrer <klein>' },
        { lang: 'eng', value: 'Drill' },
        { lang: 'fra', value: 'Foret' },
      ],
      longTexts: [{ lang: 'deu', value: '<p>Für Holz &amp; Metall</p>\r\nZeile 2\n\tEingerückt' }],
      keywords: [
        { lang: 'deu', value: 'Bohrer' },
        { lang: 'deu', value: 'Holz' },
        { lang: 'eng', value: 'drill' },
      ],
      media: [
        {
          type: 'image/jpeg',
          source: 'img/m1.jpg',
          descriptions: [{ lang: 'deu', value: 'Bild' }],
          purpose: 'normal',
          order: 1,
        },
        {
          type: null,
          source: 'https://example.com/m1.pdf',
          descriptions: [],
          purpose: 'data_sheet',
          order: null,
        },
      ],
      allFeatures: [
        { ftidref: '0173-1#02-AAF040#004', funit: 'KGM', values: [{ lang: 'zxx', value: '0.5' }] },
        {
          ftidref: 'COLOR',
          values: [
            { lang: 'deu', value: 'rot' },
            { lang: 'eng', value: 'red' },
          ],
        },
        {
          ftidref: '0173-1#02-AAR080#005',
          values: [],
          details: {
            valueIdrefs: ['0173-1#01-ADS444#005'],
            valueDetails: [{ lang: 'zxx', value: 'Konstruktion' }],
            fid: '5000',
            fparentId: '-1',
            referenceSystem: 'ECLASS-9.0',
            referenceGroupId: '27141137',
          },
        },
        {
          ftidref: '0173-1#02-AAF040#004',
          values: [{ lang: 'zxx', value: '7' }],
          details: {
            valueIdrefs: [],
            valueDetails: [],
            fid: '5001',
            fparentId: '5000',
            referenceSystem: 'ECLASS-9.0',
            referenceGroupId: '0173-1#01-ADN228#005',
          },
        },
      ],
      fragments: [
        // In the schema's order, as a file gives them (an export writes kept content in that order).
        { place: 'PRODUCT_DETAILS', xml: '<MANUFACTURER_TYPE_DESCR>DEK 5/5</MANUFACTURER_TYPE_DESCR>' },
        { place: 'PRODUCT_DETAILS', xml: '<REMARKS lang="deu">Nur für Fachbetriebe</REMARKS>' },
        {
          place: 'PRODUCT',
          xml: '<PRODUCT_REFERENCE type="accessories"><PROD_ID_TO>U-1</PROD_ID_TO></PRODUCT_REFERENCE>',
        },
      ],
      groupIds: [drills.id, tools.id],
    },
    {
      supplierPid: 'V-1',
      masterSupplierPid: 'M-1',
      orderUnit: 'C62',
      shortTexts: [{ lang: 'deu', value: 'Bohrer 5 mm' }],
      groupIds: [drills.id],
    },
    { supplierPid: 'U-1', orderUnit: 'PK', shortTexts: [{ lang: 'eng', value: 'Without a group' }] },
  ]);
  expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
}

describe('a catalogue built in pim', () => {
  it('exports as 2005.1, valid against the schema, and imports into an empty workspace alike', async () => {
    await buildCatalogue();
    const { xml, report } = await roundTrip('2005.1');
    expect(report).toMatchObject({ products: 3, variants: 1, groups: 3, problemCount: 0 });
    // The variant follows its main product and names it.
    expect(xml.indexOf('<SUPPLIER_PID>V-1')).toBeGreaterThan(xml.indexOf('<SUPPLIER_PID>M-1'));
    expect(xml).toContain(
      '<PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>M-1</PROD_ID_TO></PRODUCT_REFERENCE>',
    );
    // Markup in a long text is text, byte for byte (a carriage return as a reference).
    expect(xml).toContain('&lt;p&gt;Für Holz &amp;amp; Metall&lt;/p&gt;&#13;\nZeile 2');
    // BMEcat's required price, where pim keeps none: one on request (which an import drops again).
    expect(xml).toContain(
      '<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="on_request"/></PRODUCT_PRICE_DETAILS>',
    );
  });

  it('writes ORDER_UNIT C62 where a product has none, as the schema requires; an import then stores it', async () => {
    await upsertProducts(context.owner(), [
      { supplierPid: 'N-1', shortTexts: [{ lang: 'deu', value: 'Ohne Einheit' }] },
    ]);
    const { xml } = await exportText(context.owner());
    expect(xml).toContain('<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>');
    const copy = await otherWorkspace(context.app(), 'Copy C62');
    await importBmecat(copy, bytesOf(xml));
    const { sheets } = await catalogueOf(copy);
    expect(sheets['N-1']).toMatchObject({ orderUnit: 'C62' });
  });

  it('keeps user-defined extensions (UDX) of another namespace through export and import', async () => {
    // Not validated: the stock 2005.1 schema declares USER_DEFINED_EXTENSIONS empty; a receiver
    // validates them against a schema that declares its extensions.
    await upsertProducts(context.owner(), [
      {
        supplierPid: 'X-1',
        orderUnit: 'C62',
        shortTexts: [{ lang: 'deu', value: 'Mit UDX' }],
        fragments: [
          {
            place: 'PRODUCT',
            xml: '<USER_DEFINED_EXTENSIONS><udx:COLOR xmlns:udx="urn:acme">rot</udx:COLOR></USER_DEFINED_EXTENSIONS>',
          },
        ],
      },
    ]);
    const { xml } = await exportText(context.owner());
    expect(xml).toContain(
      '<USER_DEFINED_EXTENSIONS><udx:COLOR xmlns:udx="urn:acme">rot</udx:COLOR></USER_DEFINED_EXTENSIONS>',
    );
    // After the price (the schema's order), though the product keeps it as its only fragment.
    expect(xml.indexOf('<USER_DEFINED_EXTENSIONS>')).toBeGreaterThan(xml.indexOf('<PRODUCT_PRICE_DETAILS>'));
    const copy = await otherWorkspace(context.app(), 'Copy UDX');
    await importBmecat(copy, bytesOf(xml));
    expect(await catalogueOf(copy)).toEqual(await catalogueOf(context.owner()));
  });

  it("keeps a group's content beyond the model through import, export (in the schema's order) and import", async () => {
    // GROUP_ORDER, GROUP_DESCRIPTION, MIME_INFO and KEYWORD are no part of pim's group; the file
    // interleaves them out of the schema's order, the export puts them back in it.
    const file =
      '<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">' +
      '<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><CATALOG_ID>K</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION>' +
      '</CATALOG><SUPPLIER><SUPPLIER_NAME>S</SUPPLIER_NAME></SUPPLIER></HEADER><T_NEW_CATALOG>' +
      '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="leaf"><GROUP_ID>G7</GROUP_ID><GROUP_NAME>Bohrer</GROUP_NAME>' +
      '<KEYWORD>HSS</KEYWORD><GROUP_DESCRIPTION lang="deu">Alle Bohrer</GROUP_DESCRIPTION><PARENT_ID>0</PARENT_ID>' +
      '<MIME_INFO><MIME><MIME_SOURCE>bohrer.jpg</MIME_SOURCE></MIME></MIME_INFO><GROUP_ORDER>4</GROUP_ORDER>' +
      '</CATALOG_STRUCTURE></CATALOG_GROUP_SYSTEM>' +
      '<PRODUCT><SUPPLIER_PID>B-1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Bohrer 1</DESCRIPTION_SHORT>' +
      '</PRODUCT_DETAILS><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS></PRODUCT>' +
      '<PRODUCT_TO_CATALOGGROUP_MAP><PROD_ID>B-1</PROD_ID><CATALOG_GROUP_ID>G7</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>' +
      '</T_NEW_CATALOG></BMECAT>';
    await importBmecat(context.owner(), bytesOf(file));
    const { xml } = await roundTrip('2005.1');
    expect(xml).toContain(
      '<GROUP_ID>G7</GROUP_ID><GROUP_NAME lang="deu">Bohrer</GROUP_NAME><GROUP_DESCRIPTION lang="deu">Alle Bohrer' +
        '</GROUP_DESCRIPTION><PARENT_ID>pim-root</PARENT_ID><GROUP_ORDER>4</GROUP_ORDER><MIME_INFO><MIME>' +
        '<MIME_SOURCE>bohrer.jpg</MIME_SOURCE></MIME></MIME_INFO><KEYWORD>HSS</KEYWORD></CATALOG_STRUCTURE>',
    );
    // A later file naming the group replaces what the first kept.
    await importBmecat(
      context.owner(),
      bytesOf(file.replace(/<KEYWORD>HSS<\/KEYWORD>.*?<PARENT_ID>/, '<PARENT_ID>').replace('>4<', '>9<')),
    );
    const again = await exportText(context.owner());
    expect(again.xml).toContain('<PARENT_ID>pim-root</PARENT_ID><GROUP_ORDER>9</GROUP_ORDER><MIME_INFO>');
    expect(again.xml).not.toContain('Alle Bohrer');
    expect(again.xml).not.toContain('<KEYWORD>HSS</KEYWORD>');
  });

  it("writes each FEATURE_GROUP's names, descriptions and attributes back into that group", async () => {
    const group = (id: string, name: string, ft: string, attributes = '') =>
      `<FEATURE_GROUP${attributes}><FEATURE_GROUP_NAME lang="deu">${name}</FEATURE_GROUP_NAME>` +
      `<FEATURE_GROUP_NAME lang="eng">${name} EN</FEATURE_GROUP_NAME><FEATURE_GROUP_DESCRIPTION>zu ${name}` +
      `</FEATURE_GROUP_DESCRIPTION><REFERENCE_FEATURE_GROUP_ID>${id}</REFERENCE_FEATURE_GROUP_ID>` +
      `<FEATURE><FT_IDREF>${ft}</FT_IDREF><FVALUE>1</FVALUE></FEATURE></FEATURE_GROUP>`;
    const file =
      '<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">' +
      '<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><CATALOG_ID>K</CATALOG_ID>' +
      '<CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG><SUPPLIER><SUPPLIER_NAME>S</SUPPLIER_NAME></SUPPLIER></HEADER>' +
      '<T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>F-1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Mit Gruppen' +
      '</DESCRIPTION_SHORT></PRODUCT_DETAILS><PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0' +
      '</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>TOP</REFERENCE_FEATURE_GROUP_ID>' +
      '<FEATURE><FT_IDREF>F0</FT_IDREF><FVALUE>0</FVALUE></FEATURE>' +
      group('GA', 'Mechanik', 'FA', ' featureGroupType="ETIM &amp; mehr"') +
      group('GB', 'Elektrik', 'FB') +
      '</PRODUCT_FEATURES><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS></PRODUCT>' +
      '</T_NEW_CATALOG></BMECAT>';
    await importBmecat(context.owner(), bytesOf(file));
    const { xml } = await roundTrip('2005.1');
    const written = (id: string, name: string, ft: string, attributes = '') =>
      `<FEATURE_GROUP${attributes}><FEATURE_GROUP_NAME lang="deu">${name}</FEATURE_GROUP_NAME>` +
      `<FEATURE_GROUP_NAME lang="eng">${name} EN</FEATURE_GROUP_NAME><FEATURE_GROUP_DESCRIPTION>zu ${name}` +
      `</FEATURE_GROUP_DESCRIPTION><REFERENCE_FEATURE_GROUP_ID>${id}</REFERENCE_FEATURE_GROUP_ID><FEATURE>` +
      `<FT_IDREF>${ft}</FT_IDREF><FVALUE>1</FVALUE></FEATURE></FEATURE_GROUP>`;
    expect(xml).toContain(written('GA', 'Mechanik', 'FA', ' featureGroupType="ETIM &amp; mehr"'));
    expect(xml).toContain(written('GB', 'Elektrik', 'FB'));
  });

  it('writes an FTEMPLATE that held more than FT_ID and FT_NAME back whole, its names included', async () => {
    const product = (pid: string, feature: string) =>
      `<PRODUCT><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>${pid}</DESCRIPTION_SHORT>` +
      `</PRODUCT_DETAILS><PRODUCT_FEATURES>${feature}</PRODUCT_FEATURES><PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62` +
      '</ORDER_UNIT></PRODUCT_ORDER_DETAILS></PRODUCT>';
    const file =
      '<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">' +
      '<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><CATALOG_ID>K</CATALOG_ID>' +
      '<CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG><SUPPLIER><SUPPLIER_NAME>S</SUPPLIER_NAME></SUPPLIER></HEADER>' +
      '<T_NEW_CATALOG>' +
      product(
        'T-1',
        '<FEATURE><FT_IDREF>X0</FT_IDREF><FVALUE>0</FVALUE></FEATURE><FEATURE><FTEMPLATE><FT_ID>X1</FT_ID>' +
          '<FT_NAME lang="deu">Länge</FT_NAME><FT_NAME lang="eng">Length</FT_NAME>' +
          '<FT_SHORTNAME lang="deu">L</FT_SHORTNAME></FTEMPLATE><FVALUE>5</FVALUE></FEATURE>',
      ) +
      // The same feature without a kept template: written by its FT_IDREF.
      product('T-2', '<FEATURE><FT_IDREF>X1</FT_IDREF><FVALUE>6</FVALUE></FEATURE>') +
      '</T_NEW_CATALOG></BMECAT>';
    await importBmecat(context.owner(), bytesOf(file));
    // The names are the definition's (an import does not take a product's FT_NAMEs into it yet).
    await defineFeature(context.owner(), {
      ftidref: 'X1',
      names: [
        { lang: 'deu', name: 'Länge' },
        { lang: 'eng', name: 'Length' },
      ],
    });
    const { xml } = await roundTrip('2005.1');
    expect(xml).toContain(
      '<PRODUCT_FEATURES><FEATURE><FT_IDREF>X0</FT_IDREF><FVALUE>0</FVALUE></FEATURE><FEATURE><FTEMPLATE>' +
        '<FT_ID>X1</FT_ID><FT_NAME lang="deu">Länge</FT_NAME><FT_NAME lang="eng">Length</FT_NAME>' +
        '<FT_SHORTNAME lang="deu">L</FT_SHORTNAME></FTEMPLATE><FVALUE>5</FVALUE></FEATURE></PRODUCT_FEATURES>',
    );
    expect(xml).toContain(
      '<PRODUCT_FEATURES><FEATURE><FT_IDREF>X1</FT_IDREF><FVALUE>6</FVALUE></FEATURE></PRODUCT_FEATURES>',
    );
  });

  it('exports as 2005 (the namespace most receivers expect), valid once its namespace is 2005.1’s', async () => {
    await buildCatalogue();
    const { xml } = await roundTrip('2005');
    expect(xml).toContain('<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">');
  });

  it('exports the languages asked for only', async () => {
    await buildCatalogue();
    const { xml } = await exportText(context.owner(), { languages: ['eng'] });
    expect(await schemaProblems(xml)).toBe('');
    expect(xml).toContain('<LANGUAGE default="true">eng</LANGUAGE>');
    // Texts, keywords and values of other languages are left out (group names a group has only in
    // them are not: BMEcat requires one; kept content is written as it came).
    expect(xml).not.toMatch(/<(DESCRIPTION_SHORT|DESCRIPTION_LONG|KEYWORD|FVALUE|MIME_DESCR) lang="deu"/);
    expect(xml).toContain('<DESCRIPTION_SHORT lang="eng">Drill</DESCRIPTION_SHORT>');
    // Language-neutral values stay.
    expect(xml).toContain('<FVALUE>0.5</FVALUE>');
  });

  it('exports one group with its subgroups and their products', async () => {
    await buildCatalogue();
    const ctx = context.owner();
    const other = await createGroup(ctx, { name: 'Andere' });
    await upsertProducts(ctx, [
      { supplierPid: 'O-1', shortTexts: [{ lang: 'deu', value: 'O' }], groupIds: [other.id] },
    ]);
    const { xml, report } = await exportText(ctx, { groupId: other.id });
    expect(await schemaProblems(xml)).toBe('');
    expect(report).toMatchObject({ products: 1, groups: 1 });
    expect(xml).toContain('<SUPPLIER_PID>O-1</SUPPLIER_PID>');
    expect(xml).not.toContain('M-1');
  });

  it('reports what BMEcat cannot take as it is, and fails with strict', async () => {
    const ctx = context.owner();
    const long = 'P'.repeat(40);
    await upsertProducts(ctx, [{ supplierPid: long, shortTexts: [{ lang: 'deu', value: 'x'.repeat(151) }] }]);
    const { report } = await exportText(ctx);
    expect(report.problems).toEqual([
      { supplierPid: long, message: "DESCRIPTION_SHORT is 151 characters, over BMEcat's 150" },
      { supplierPid: long, message: "SUPPLIER_PID is 40 characters, over BMEcat's 32" },
    ]);
    await expect(exportText(ctx, { strict: true })).rejects.toThrow(
      `Product ${long} DESCRIPTION_SHORT is 151 characters, over BMEcat's 150 (--strict)`,
    );
  });

  it('refuses an unknown group and an unknown language before it writes anything', async () => {
    const ctx = context.owner();
    await expect(exportText(ctx, { groupId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(exportText(ctx, { languages: ['xx'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
