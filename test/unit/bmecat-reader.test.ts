import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBmecat, type BmecatEvent } from '../../src/interchange/bmecat/bmecat-reader.js';
import type { BmecatProduct } from '../../src/interchange/bmecat/bmecat-product.js';
import { readXmlRecords, type XmlElement } from '../../src/interchange/bmecat/xml-records.js';
import { serializeXml } from '../../src/interchange/bmecat/xml-serialize.js';
import { BMECAT_SAMPLES, BMECAT_SAMPLE_FILES, bmecatSample } from '../helpers/bmecat-samples.js';

/** The file's bytes in chunks of `size`, as a stream delivers them (characters split across chunks). */
async function* chunks(bytes: Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function read(bytes: Uint8Array | string, size?: number): Promise<BmecatEvent[]> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const events: BmecatEvent[] = [];
  for await (const event of readBmecat(chunks(data, size))) events.push(event);
  return events;
}

const products = (events: BmecatEvent[]): BmecatProduct[] =>
  events.flatMap((e) => (e.kind === 'product' ? [e.product] : []));

/** A small catalogue in the namespace given, with `body` inside T_NEW_CATALOG. */
function catalogue(
  body: string,
  root = '<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">',
): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n${root}<HEADER><CATALOG><LANGUAGE>eng</LANGUAGE>` +
    `<LANGUAGE default="true">deu</LANGUAGE><CATALOG_ID>C1</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION>` +
    `</CATALOG><SUPPLIER><SUPPLIER_NAME>ACME</SUPPLIER_NAME></SUPPLIER></HEADER>` +
    `<T_NEW_CATALOG>${body}</T_NEW_CATALOG></BMECAT>`
  );
}

/** Counts of the elements of a product in the file, by a plain text search (independent of the parser). */
function count(text: string, element: string): number {
  return text.split(`<${element}>`).length - 1 + (text.split(`<${element} `).length - 1);
}

describe('the BMEcat reader on the shared Weidmüller samples', () => {
  it.each(BMECAT_SAMPLE_FILES)('%s: every product part the file holds', async (file) => {
    const bytes = readFileSync(join(BMECAT_SAMPLES, file));
    const text = bytes.toString('utf8');
    const events = await read(bytes, 4096);
    const header = events.find((e) => e.kind === 'header')!;
    expect(header).toMatchObject({ version: '2005', languages: ['deu', 'eng'], defaultLanguage: 'deu' });
    expect(events.find((e) => e.kind === 'transaction')).toMatchObject({ name: 'T_NEW_CATALOG' });
    const [product, ...others] = products(events);
    expect(others).toEqual([]);
    expect(product!.supplierPid).toBe(/<SUPPLIER_PID>([^<]+)</.exec(text)![1]);
    expect(product!.ean).toBe(/<EAN>([^<]+)</.exec(text)![1]);
    expect(product!.manufacturerName).toBe('Weidmueller Group');
    expect(product!.orderUnit).toBe(/<ORDER_UNIT>([^<]+)</.exec(text)![1]);
    expect(product!.contentUnit).toBe(/<CONTENT_UNIT>([^<]+)</.exec(text)![1]);
    expect(product!.shortTexts.map((t) => t.lang)).toEqual(['deu', 'eng']);
    expect(product!.longTexts.map((t) => t.lang)).toEqual(['deu', 'eng']);
    expect(product!.keywords).toHaveLength(count(text, 'KEYWORD'));
    // Every FEATURE, in FEATURE_GROUPs too, with its FT_ID, values, value ids and details.
    expect(product!.features).toHaveLength(count(text, 'FEATURE'));
    expect(product!.features.map((f) => f.ftidref)).toEqual(
      [...text.matchAll(/<FT_ID>([^<]+)<\/FT_ID>/g)].map((m) => m[1]),
    );
    expect(product!.features.flatMap((f) => f.values)).toHaveLength(count(text, 'FVALUE'));
    expect(product!.features.flatMap((f) => f.details?.valueIdrefs ?? [])).toHaveLength(
      count(text, 'VALUE_IDREF'),
    );
    expect(product!.features.every((f) => f.details?.referenceSystem === 'ECLASS-9.0')).toBe(true);
    // A value without a language is language-neutral (zxx), not the catalogue's default language.
    const neutral = product!.features.flatMap((f) => f.values).filter((v) => v.lang === 'zxx');
    expect(neutral).toHaveLength(text.split('<FVALUE>').length - 1);
    expect(product!.media).toEqual([
      expect.objectContaining({ type: /<MIME_TYPE>([^<]+)</.exec(text)![1], purpose: 'data_sheet' }),
    ]);
    // What pim does not model is kept, verbatim, where it stood: prices, the type description,
    // references other than base_product, the feature groups' second ids.
    const places = product!.fragments.map((f) => f.place);
    expect(places).toContain('PRODUCT');
    expect(product!.fragments.find((f) => f.xml.startsWith('<PRODUCT_PRICE_DETAILS>'))!.xml).toContain(
      '<LOWER_BOUND>',
    );
    expect(product!.fragments.filter((f) => f.xml.startsWith('<PRODUCT_REFERENCE '))).toHaveLength(
      count(text, 'PRODUCT_REFERENCE'),
    );
    expect(product!.fragments.find((f) => f.xml.startsWith('<MANUFACTURER_TYPE_DESCR>'))?.place).toBe(
      'PRODUCT_DETAILS',
    );
    expect(product!.featureNames).toHaveLength(count(text, 'FT_NAME'));
  });

  it('reads the features of a FEATURE_GROUP with that group as their reference group', async () => {
    const bytes = readFileSync(bmecatSample('WEI_BMECat_1609801044.xml'));
    const [product] = products(await read(bytes, 1000));
    const maker = product!.features.find((f) => f.ftidref === '0173-1#02-AAO677#001')!;
    expect(maker).toEqual({
      ftidref: '0173-1#02-AAO677#001',
      funit: null,
      values: [{ lang: 'zxx', value: 'Weidmueller Group' }],
      details: {
        valueIdrefs: [],
        valueDetails: [],
        fid: '1003',
        fparentId: '1000',
        referenceSystem: 'ECLASS-9.0',
        referenceGroupId: '0173-1#01-ADN228#005',
      },
    });
    expect(product!.features[0]!.details!.referenceGroupId).toBe('27141137');
  });
});

/** A product with what real files vary in: default language, CDATA, FNAME, neutral values, a variant, a UDX. */
const product = `<PRODUCT><SUPPLIER_PID> P-1 </SUPPLIER_PID><PRODUCT_DETAILS>
    <DESCRIPTION_SHORT>Bohrer für Holz</DESCRIPTION_SHORT><DESCRIPTION_SHORT lang="eng">Drill</DESCRIPTION_SHORT>
    <DESCRIPTION_LONG><![CDATA[<b>Hart</b> & schnell]]></DESCRIPTION_LONG>
    <INTERNATIONAL_PID type="gtin">4006381333115</INTERNATIONAL_PID></PRODUCT_DETAILS>
    <PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-5.1</REFERENCE_FEATURE_SYSTEM_NAME>
    <FEATURE><FNAME lang="deu">Länge</FNAME><FNAME lang="eng">Length</FNAME><FVALUE lang="deu">12</FVALUE><FUNIT>mm</FUNIT></FEATURE>
    <FEATURE><FT_IDREF>AAA001</FT_IDREF><FVALUE>rot</FVALUE><FVALUE>blau</FVALUE></FEATURE></PRODUCT_FEATURES>
    <PRODUCT_REFERENCE type="base_product"><PROD_ID_TO>MAIN-1</PROD_ID_TO></PRODUCT_REFERENCE>
    <USER_DEFINED_EXTENSIONS><udx:COLOR xmlns:udx="urn:acme">grün</udx:COLOR></USER_DEFINED_EXTENSIONS>
    </PRODUCT>`;

describe('what real files vary in', () => {
  it('reads texts in the default language, GTINs, features by FNAME or FT_IDREF, variants and extensions', async () => {
    const [p] = products(await read(catalogue(product)));
    expect(p).toMatchObject({
      supplierPid: 'P-1',
      ean: '4006381333115',
      masterSupplierPid: 'MAIN-1',
      shortTexts: [
        { lang: 'deu', value: 'Bohrer für Holz' },
        { lang: 'eng', value: 'Drill' },
      ],
      longTexts: [{ lang: 'deu', value: '<b>Hart</b> & schnell' }],
    });
    expect(p!.features.map((f) => [f.ftidref, f.funit, f.values])).toEqual([
      ['Länge', 'mm', [{ lang: 'deu', value: '12' }]],
      [
        'AAA001',
        null,
        [
          { lang: 'zxx', value: 'rot' },
          { lang: 'zxx', value: 'blau' },
        ],
      ],
    ]);
    expect(p!.featureNames).toEqual([
      {
        ftidref: 'Länge',
        names: [
          { lang: 'deu', value: 'Länge' },
          { lang: 'eng', value: 'Length' },
        ],
      },
    ]);
    // The extension keeps its own namespace, declared on the fragment; the BMEcat element none.
    expect(p!.fragments).toEqual([
      {
        place: 'PRODUCT',
        xml: '<USER_DEFINED_EXTENSIONS><udx:COLOR xmlns:udx="urn:acme">grün</udx:COLOR></USER_DEFINED_EXTENSIONS>',
      },
    ]);
  });

  it.each([
    ['no namespace', '<BMECAT version="2005">'],
    ['2005.1', '<BMECAT version="2005.1" xmlns="http://www.bmecat.org/bmecat/2005.1">'],
    ['2005.2', '<BMECAT version="2005.2" xmlns="http://www.bmecat.org/bmecat/2005.2">'],
    ['a prefix', '<BMECAT version="2005" xmlns:bme="http://www.bmecat.org/bmecat/2005">'],
  ])('reads a catalogue in %s alike', async (name, root) => {
    let xml = catalogue(product, root);
    // Every BMEcat element written with the prefix the root binds (bme:PRODUCT...).
    if (name === 'a prefix') xml = xml.replace(/<(\/?)(?!\/|udx:|!|\?)/g, '<$1bme:');
    const [p] = products(await read(xml));
    expect(p!.supplierPid).toBe('P-1');
    expect(p!.features).toHaveLength(2);
    expect(p!.fragments.map((f) => f.xml)).toEqual([
      '<USER_DEFINED_EXTENSIONS><udx:COLOR xmlns:udx="urn:acme">grün</udx:COLOR></USER_DEFINED_EXTENSIONS>',
    ]);
  });

  it('reads BMEcat 1.2 (ARTICLE, SUPPLIER_AID, ARTICLE_FEATURES) into the same model', async () => {
    const xml =
      '<?xml version="1.0"?><BMECAT version="1.2" xmlns="http://www.bmecat.org/XMLSchema/1.2/bmecat_new_catalog">' +
      '<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER><T_NEW_CATALOG>' +
      '<ARTICLE><SUPPLIER_AID>A-1</SUPPLIER_AID><ARTICLE_DETAILS><DESCRIPTION_SHORT>Schraube</DESCRIPTION_SHORT>' +
      '<EAN>4000000000001</EAN></ARTICLE_DETAILS><ARTICLE_FEATURES><FEATURE><FNAME>Farbe</FNAME>' +
      '<FVALUE>rot</FVALUE></FEATURE></ARTICLE_FEATURES><ARTICLE_PRICE_DETAILS><ARTICLE_PRICE price_type="net_list">' +
      '<PRICE_AMOUNT>1.5</PRICE_AMOUNT></ARTICLE_PRICE></ARTICLE_PRICE_DETAILS></ARTICLE>' +
      '<ARTICLE_TO_CATALOGGROUP_MAP><ART_ID>A-1</ART_ID><CATALOG_GROUP_ID>G1</CATALOG_GROUP_ID></ARTICLE_TO_CATALOGGROUP_MAP>' +
      '</T_NEW_CATALOG></BMECAT>';
    const events = await read(xml);
    expect(products(events)).toEqual([
      expect.objectContaining({
        supplierPid: 'A-1',
        ean: '4000000000001',
        shortTexts: [{ lang: 'deu', value: 'Schraube' }],
        features: [{ ftidref: 'Farbe', funit: null, values: [{ lang: 'zxx', value: 'rot' }], details: null }],
        // Kept under 2005's names, so that an export writes valid 2005.
        fragments: [
          {
            place: 'PRODUCT',
            xml: '<PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>1.5</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>',
          },
        ],
      }),
    ]);
    expect(events.find((e) => e.kind === 'mapping')).toMatchObject({ supplierPid: 'A-1', groupId: 'G1' });
  });

  it('reads the group system, one structure at a time', async () => {
    const events = await read(
      catalogue(
        '<CATALOG_GROUP_SYSTEM><GROUP_SYSTEM_ID>S1</GROUP_SYSTEM_ID>' +
          '<CATALOG_STRUCTURE type="root"><GROUP_ID>1</GROUP_ID><GROUP_NAME>Alles</GROUP_NAME><PARENT_ID>0</PARENT_ID></CATALOG_STRUCTURE>' +
          '<CATALOG_STRUCTURE type="leaf"><GROUP_ID>2</GROUP_ID><GROUP_NAME lang="deu">Bohrer</GROUP_NAME>' +
          '<GROUP_NAME lang="eng">Drills</GROUP_NAME><GROUP_DESCRIPTION lang="deu">Alle <![CDATA[Bohrer]]></GROUP_DESCRIPTION>' +
          '<PARENT_ID>1</PARENT_ID><GROUP_ORDER>3</GROUP_ORDER><KEYWORD>HSS</KEYWORD></CATALOG_STRUCTURE>' +
          '</CATALOG_GROUP_SYSTEM>',
      ),
    );
    expect(events.filter((e) => e.kind === 'group')).toEqual([
      expect.objectContaining({
        groupId: '1',
        parentId: '0',
        type: 'root',
        names: [{ lang: 'deu', value: 'Alles' }],
        kept: [],
      }),
      expect.objectContaining({
        groupId: '2',
        parentId: '1',
        type: 'leaf',
        // What pim does not model, verbatim (CDATA as escaped text), in the file's order.
        kept: [
          '<GROUP_DESCRIPTION lang="deu">Alle Bohrer</GROUP_DESCRIPTION>',
          '<GROUP_ORDER>3</GROUP_ORDER>',
          '<KEYWORD>HSS</KEYWORD>',
        ],
        names: [
          { lang: 'deu', value: 'Bohrer' },
          { lang: 'eng', value: 'Drills' },
        ],
      }),
    ]);
    expect(events).toContainEqual({
      kind: 'fragment',
      place: 'T_NEW_CATALOG/CATALOG_GROUP_SYSTEM',
      xml: '<GROUP_SYSTEM_ID>S1</GROUP_SYSTEM_ID>',
    });
  });

  it("never reads another namespace's element as BMEcat's, whatever its local name: it is kept verbatim", async () => {
    const x = 'xmlns:x="urn:other"';
    const xml = catalogue(
      '<CATALOG_GROUP_SYSTEM><CATALOG_STRUCTURE type="leaf"><GROUP_ID>2</GROUP_ID>' +
        `<x:GROUP_ID ${x}>9</x:GROUP_ID><GROUP_NAME>Bohrer</GROUP_NAME><x:GROUP_NAME ${x}>Fremd</x:GROUP_NAME>` +
        `<PARENT_ID>1</PARENT_ID></CATALOG_STRUCTURE><x:CATALOG_STRUCTURE ${x}><GROUP_ID>3</GROUP_ID></x:CATALOG_STRUCTURE>` +
        '</CATALOG_GROUP_SYSTEM>' +
        `<PRODUCT><x:SUPPLIER_PID ${x}>X-1</x:SUPPLIER_PID><SUPPLIER_PID>P-1</SUPPLIER_PID><PRODUCT_DETAILS>` +
        `<x:DESCRIPTION_SHORT ${x}>fremd</x:DESCRIPTION_SHORT><DESCRIPTION_SHORT>Bohrer</DESCRIPTION_SHORT>` +
        `</PRODUCT_DETAILS><PRODUCT_FEATURES><FEATURE><FNAME>Farbe</FNAME><x:FVALUE ${x}>grün</x:FVALUE>` +
        `<FVALUE>rot</FVALUE></FEATURE></PRODUCT_FEATURES></PRODUCT><x:PRODUCT ${x}><SUPPLIER_PID>X-2</SUPPLIER_PID></x:PRODUCT>`,
    )
      .replace('<CATALOG>', `<CATALOG><x:LANGUAGE ${x}>fra</x:LANGUAGE><x:CATALOG_ID ${x}>X</x:CATALOG_ID>`)
      .replace('</HEADER>', `</HEADER><x:T_NEW_CATALOG ${x}>not a transaction</x:T_NEW_CATALOG>`);
    const events = await read(xml);
    expect(events.find((e) => e.kind === 'header')).toMatchObject({
      languages: ['deu', 'eng'],
      catalogId: 'C1',
    });
    expect(events.filter((e) => e.kind === 'transaction')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'group')).toEqual([
      expect.objectContaining({
        groupId: '2',
        names: [{ lang: 'deu', value: 'Bohrer' }],
        // Kept, foreign ones after the schema's own elements.
        kept: [
          '<x:GROUP_ID xmlns:x="urn:other">9</x:GROUP_ID>',
          '<x:GROUP_NAME xmlns:x="urn:other">Fremd</x:GROUP_NAME>',
        ],
      }),
    ]);
    const [p, ...others] = products(events);
    expect(others).toEqual([]);
    expect(p).toMatchObject({
      supplierPid: 'P-1',
      shortTexts: [{ lang: 'deu', value: 'Bohrer' }],
      features: [{ ftidref: 'Farbe', values: [{ lang: 'zxx', value: 'rot' }] }],
    });
    expect(p!.fragments).toEqual([
      { place: 'PRODUCT', xml: '<x:SUPPLIER_PID xmlns:x="urn:other">X-1</x:SUPPLIER_PID>' },
      {
        place: 'PRODUCT_DETAILS',
        xml: '<x:DESCRIPTION_SHORT xmlns:x="urn:other">fremd</x:DESCRIPTION_SHORT>',
      },
      { place: 'PRODUCT_FEATURES/FEATURE#0', xml: '<x:FVALUE xmlns:x="urn:other">grün</x:FVALUE>' },
    ]);
    const fragments = events.flatMap((e) => (e.kind === 'fragment' ? [[e.place, e.xml]] : []));
    expect(fragments).toEqual([
      ['BMECAT', '<x:T_NEW_CATALOG xmlns:x="urn:other">not a transaction</x:T_NEW_CATALOG>'],
      [
        'T_NEW_CATALOG/CATALOG_GROUP_SYSTEM',
        '<x:CATALOG_STRUCTURE xmlns:x="urn:other"><GROUP_ID>3</GROUP_ID></x:CATALOG_STRUCTURE>',
      ],
      ['T_NEW_CATALOG', '<x:PRODUCT xmlns:x="urn:other"><SUPPLIER_PID>X-2</SUPPLIER_PID></x:PRODUCT>'],
    ]);
  });

  it.each([
    ['UTF-16LE with a byte order mark', 'utf-16le', true],
    ['UTF-16BE with a byte order mark', 'utf-16be', true],
    ['ISO-8859-1', 'latin1', false],
    ['windows-1252', 'latin1', false],
  ])('reads %s as the file declares it', async (name, encoding, bom) => {
    const declared = name.startsWith('UTF-16') ? 'UTF-16' : name;
    const xml = catalogue(product.replace('P-1', 'Größe-1')).replace(
      'encoding="UTF-8"',
      `encoding="${declared}"`,
    );
    const body = encode(xml, encoding as 'utf-16le' | 'utf-16be' | 'latin1');
    const bytes = bom
      ? Buffer.concat([Buffer.from(encoding === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff]), body])
      : body;
    const [p] = products(await read(bytes, 5));
    expect(p!.supplierPid).toBe('Größe-1');
    expect(p!.shortTexts[0]!.value).toBe('Bohrer für Holz');
  });
});

function encode(text: string, encoding: 'utf-16le' | 'utf-16be' | 'latin1'): Buffer {
  if (encoding !== 'utf-16be') return Buffer.from(text, encoding);
  const le = Buffer.from(text, 'utf-16le');
  return le.swap16();
}

describe('bad and hostile input', () => {
  it("keeps elements named like an object's built-in properties as what they are", async () => {
    const [p] = products(
      await read(
        catalogue(
          '<PRODUCT><SUPPLIER_PID>P-1</SUPPLIER_PID><constructor>a</constructor><__proto__ toString="b"/>' +
            '<PRODUCT_DETAILS><DESCRIPTION_SHORT>Bohrer</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>',
        ),
      ),
    );
    expect(p!.fragments).toEqual([
      { place: 'PRODUCT', xml: '<constructor>a</constructor>' },
      { place: 'PRODUCT', xml: '<__proto__ toString="b"/>' },
    ]);
  });

  async function refusal(xml: string): Promise<{ message: string; line: number; column: number }> {
    const error = await read(xml).then(
      () => undefined,
      (e: unknown) => e as { message: string; line: number; column: number },
    );
    expect(error).toBeDefined();
    return error!;
  }

  it('says where a file stops being well-formed', async () => {
    const error = await refusal(catalogue('<PRODUCT><SUPPLIER_PID>1</SUPPLIER_PID>\n\n  <BROKEN></PRODUCT>'));
    expect(error.message).toMatch(/^The file is not well-formed XML: /);
    expect(error.line).toBe(4);
  });

  it('refuses a root that is not BMECAT, naming it', async () => {
    const error = await refusal('<?xml version="1.0"?>\n<catalog><item/></catalog>');
    expect(error).toMatchObject({ line: 2, column: 1 });
    expect(error.message).toBe(
      "The file's root element is catalog, not BMECAT: this is not a BMEcat catalogue",
    );
  });

  it('never expands an entity a DOCTYPE declares (billion laughs) nor fetches an external one (XXE)', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE BMECAT [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      catalogue('<PRODUCT><SUPPLIER_PID>&b;</SUPPLIER_PID></PRODUCT>').replace(/^<\?xml[^>]*>\n/, '');
    expect((await refusal(laughs)).message).toMatch(/not well-formed XML: .*entity/i);
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE BMECAT [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
      catalogue('<PRODUCT><SUPPLIER_PID>&x;</SUPPLIER_PID></PRODUCT>').replace(/^<\?xml[^>]*>\n/, '');
    expect((await refusal(xxe)).message).toMatch(/not well-formed XML: .*entity/i);
    // A DOCTYPE alone is tolerated.
    const plain =
      '<?xml version="1.0"?><!DOCTYPE BMECAT SYSTEM "bmecat_2005.dtd">' +
      catalogue(product).replace(/^<\?xml[^>]*>\n/, '');
    expect(products(await read(plain))).toHaveLength(1);
  });

  it('refuses bytes the declared encoding does not allow', async () => {
    const bytes = Buffer.concat([
      Buffer.from(catalogue('').slice(0, 60)),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from(catalogue('').slice(60)),
    ]);
    await expect(read(bytes)).rejects.toThrow(/not valid UTF-8/);
  });
});

describe('xml records and their serialisation', () => {
  it('writes an element back with the same characters, escaped', async () => {
    const xml = '<R><A x="1 &amp; &quot;2&quot;">a &lt; b &amp; c<![CDATA[ ]]>]]&gt;</A><B/></R>';
    const records: XmlElement[] = [];
    async function* one() {
      yield xml;
    }
    for await (const e of readXmlRecords(
      one(),
      (_uri, local) => local,
      (path) => path.length === 2,
    ))
      if (e.type === 'record') records.push(e.element);
    expect(records.map((r) => serializeXml(r, () => true))).toEqual([
      '<A x="1 &amp; &quot;2&quot;">a &lt; b &amp; c ]]&gt;</A>',
      '<B/>',
    ]);
  });
});
