import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DTO_FIELDS, SHEET_FIELDS } from '../../src/db/catalogue/product-fields.js';
import { defineFeature } from '../../src/domain/features/feature.service.js';
import { call, connectHttp, ok } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The product sheet's model (commit b81dba5): every feature occurrence with its details, several
 * groups, keywords, media, fragments and the manufacturer's name. A sheet written through any
 * write path (REST PUT /sheet, MCP create_product and update_product, REST bulk create and
 * update) reads back, through REST GET /sheet and MCP get_product, as the sheet computed from the
 * input by the documented normalisation (lists per language stably ordered by language, byte
 * order; ger/fre stored as deu/fra; funit falls back to the definition's default unit). A sheet
 * read and sent back unchanged reads back the same. The spec's single feature routes address the
 * first occurrence of each ftidref.
 *
 * ROUNDTRIP_SEED=<n> replays another seed; ROUNDTRIP_RUNS=<n> changes the number of runs.
 */

const SEED = Number(process.env.ROUNDTRIP_SEED ?? 20261128);
const NUM_RUNS = Number(process.env.ROUNDTRIP_RUNS ?? 30);

// ---------------------------------------------------------------------------------------------
// Shapes

interface LV {
  lang: string;
  value: string;
}
interface Details {
  valueIdrefs: string[];
  valueDetails: LV[];
  fid: string | null;
  fparentId: string | null;
  referenceSystem: string | null;
  referenceGroupId: string | null;
}
interface OccurrenceIn {
  ftidref: string;
  funit?: string | null;
  values: LV[];
  details?: Details | null;
}
interface Media {
  type: string | null;
  source: string;
  descriptions: LV[];
  purpose: string | null;
  order: number | null;
}
interface Fragment {
  place: string;
  xml: string;
}
/** ProductDto's text fields (supplierIdRef, ean, …), by key: every field defined is tried. */
type Fields = Record<string, string | null>;
/** A sheet as the arbitraries make it: groups as indices into the groups made in beforeAll. */
interface SheetIn {
  fields: Fields;
  shortTexts: LV[];
  longTexts: LV[];
  features: OccurrenceIn[];
  groupSlots: number[];
  /** The sheet's own text fields (manufacturerName, …), by key. */
  sheetFields: Fields;
  keywords: LV[];
  media: Media[];
  fragments: Fragment[];
}
interface GroupInfo {
  id: number;
  groupId: string;
  name: string;
}
interface ProductDto {
  [field: string]: unknown;
  id: number;
  supplierPid: string;
  name: string;
  masterProduct: boolean;
  variantCount: number;
  masterProductId: number | null;
  createdAt: string;
  updatedAt: string;
}
interface FeatureDto {
  ftidref: string;
  funit: string | null;
  names: LV[];
  values: LV[];
}
interface Sheet {
  product: ProductDto;
  shortTexts: LV[];
  longTexts: LV[];
  features: (FeatureDto & { details: Details | null })[];
  group: GroupInfo | null;
  groups: (GroupInfo & { catalogGroupId: string | null })[];
  [sheetField: string]: unknown;
  keywords: LV[];
  media: Media[];
  fragments: Fragment[];
  variants: { id: number; supplierPid: string; name: string }[];
}

// ---------------------------------------------------------------------------------------------
// Arbitraries: small, with the characters that break naive encodings (XML, JSON, URLs, UTF-8/16)

const charUnit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'Z', '0', '7', ' ', '-', '_', '.') },
  {
    weight: 3,
    arbitrary: fc.constantFrom('<', '>', '&', '"', "'", '/', '#', '%', '?', '+', '\\', '\n', '\t', '\r'),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom('ä', 'ß', 'é', '€', 'µ', 'Ω', '中', '\u00a0', '\u200b', '😀', '𝄞', 'e\u0301'),
  },
);
const text = (minLength: number, maxLength: number) => fc.string({ unit: charUnit, minLength, maxLength });

/** Stored form of the languages below (ISO 639-2/B ger and fre are stored as /T deu and fra). */
const B_TO_T: Record<string, string> = { ger: 'deu', fre: 'fra' };
const norm = (lang: string) => {
  const lower = lang.toLowerCase();
  return B_TO_T[lower] ?? lower;
};
const STORED_LANGS = ['deu', 'eng', 'fra', 'ita', 'zxx'];
const langArb = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...STORED_LANGS) },
  { weight: 1, arbitrary: fc.constantFrom('ger', 'fre', 'ENG', 'Ita') },
);
const entries = (maxLength: number, minValue = 0) =>
  fc.array(fc.record({ lang: langArb, value: text(minValue, 8) }), { maxLength });
/** Texts: one per language (also ger and deu are one language). */
const texts = fc.uniqueArray(fc.record({ lang: langArb, value: text(0, 10) }), {
  maxLength: 3,
  selector: (t) => norm(t.lang),
});

/** Two of them get definitions with names and a default unit in beforeAll. */
const DEFINED = {
  '0173-1#02-AAF040#004': {
    unit: 'V',
    names: [
      { lang: 'deu', name: 'Spannung' },
      { lang: 'eng', name: 'Voltage' },
    ],
  },
  'EF000008/ETIM': { unit: 'mm', names: [{ lang: 'eng', name: 'Width <b> & "w"' }] },
} as const;
type DefinedFtidref = keyof typeof DEFINED;
const FTIDREFS = [
  ...Object.keys(DEFINED),
  '0173-1#02-BAA123#008',
  'X/1 #a',
  'a%2Fb?c=d&e',
  'ä ö/ü 😀',
  '#/'.repeat(128),
];
/** Route-safe: '.' and '..' are dot segments a WHATWG URL client removes before sending. */
const ftidrefArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FTIDREFS) },
  { weight: 1, arbitrary: text(1, 10).filter((s) => s !== '.' && s !== '..') },
);
const optionalText = (max: number) => fc.option(text(0, max), { nil: null });
const detailsArb: fc.Arbitrary<Details> = fc.record({
  valueIdrefs: fc.array(text(1, 8), { maxLength: 3 }),
  valueDetails: entries(3),
  fid: optionalText(6),
  fparentId: optionalText(6),
  referenceSystem: fc.option(fc.oneof(fc.constantFrom('ECLASS-9.0', 'ETIM-7.0'), text(0, 6)), { nil: null }),
  referenceGroupId: fc.option(fc.oneof(fc.constantFrom('0173-1#01-AGZ376#013'), text(0, 6)), { nil: null }),
});
const occurrenceArb = (ftidrefs: fc.Arbitrary<string>): fc.Arbitrary<OccurrenceIn> =>
  fc.record(
    {
      ftidref: ftidrefs,
      funit: fc.option(fc.oneof(fc.constantFrom('mm', 'V', '°C', 'kg/m³', ''), text(0, 5)), { nil: null }),
      values: entries(4),
      details: fc.option(detailsArb, { nil: null }),
    },
    { requiredKeys: ['ftidref', 'values'] },
  );
const mediaArb: fc.Arbitrary<Media> = fc.record({
  type: fc.option(fc.constantFrom('image/jpeg', 'application/pdf', 'url', 'text/html; charset="utf-8"'), {
    nil: null,
  }),
  source: fc.oneof(fc.constantFrom('https://example.com/a b.jpg?x=1&y=ä', 'bilder/ä.png'), text(1, 10)),
  descriptions: entries(3),
  purpose: fc.option(fc.constantFrom('normal', 'thumbnail', 'data_sheet', ''), { nil: null }),
  order: fc.option(
    fc.oneof(fc.integer({ min: -3, max: 10 }), fc.integer({ min: -2147483648, max: 2147483647 })),
    {
      nil: null,
    },
  ),
});
const xmlArb = fc.oneof(
  fc
    .tuple(text(0, 6), text(0, 6))
    .map(([a, b]) => `<UDX.EDXF.X q="a &amp; &quot;b&quot;" r='${a}'>${b}<![CDATA[<&>]]>ÄÖÜ €</UDX.EDXF.X>`),
  text(1, 12),
);
const fragmentArb: fc.Arbitrary<Fragment> = fc.record({
  place: fc.oneof(
    fc.constantFrom(
      'PRODUCT_DETAILS/SPECIAL_TREATMENT_CLASS',
      'USER_DEFINED_EXTENSIONS',
      'after:PRODUCT_ORDER_DETAILS',
    ),
    text(1, 10),
  ),
  xml: xmlArb,
});
const GROUP_COUNT = 4;
const sheetArb: fc.Arbitrary<SheetIn> = fc.record({
  fields: fc.record(Object.fromEntries(DTO_FIELDS.map((f) => [f.key, optionalText(8)]))),
  shortTexts: texts,
  longTexts: texts,
  features: fc.array(occurrenceArb(ftidrefArb), { maxLength: 6 }),
  groupSlots: fc.shuffledSubarray([...Array(GROUP_COUNT).keys()], { maxLength: 3 }),
  sheetFields: fc.record(Object.fromEntries(SHEET_FIELDS.map((f) => [f.key, optionalText(10)]))),
  keywords: entries(5, 1),
  media: fc.array(mediaArb, { maxLength: 3 }),
  fragments: fc.array(fragmentArb, { maxLength: 3 }),
});

// ---------------------------------------------------------------------------------------------
// The server, the groups and the feature definitions of the file

let server: TestServer;
let token: string;
let client: Client;
const groups: GroupInfo[] = [];
let pidCounter = 0;
const nextPid = (what: string) => `RT-${++pidCounter}-${what}`;

const rest = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  server.request<T>(method, path, { token, body, headers });

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  client = await connectHttp(server.baseUrl, token);
  for (const [ftidref, def] of Object.entries(DEFINED)) {
    await defineFeature(server.app.ownerContext(), { ftidref, defaultUnit: def.unit, names: [...def.names] });
  }
  // Names with the characters of the texts, one group only named in English, one child.
  const made: { name: string; language?: string; parent?: number }[] = [
    { name: 'Werkzeug & "Zubehör"' },
    { name: 'Akku/Bohrer <18 V>', parent: 0 },
    { name: 'Only English', language: 'eng' },
    { name: 'Größe 😀' },
  ];
  for (const m of made) {
    const parentId = m.parent === undefined ? undefined : groups[m.parent]!.id;
    const created = await rest<{ id: number }>('POST', '/api/group', {
      name: m.name,
      language: m.language,
      parentId,
    });
    expect(created.status, created.text).toBe(201);
    const read = await rest<GroupInfo>('GET', `/api/group/${created.body.data!.id}`);
    const { id, groupId, name } = read.body.data!;
    groups.push({ id, groupId, name });
  }
  expect(groups).toHaveLength(GROUP_COUNT);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

// ---------------------------------------------------------------------------------------------
// The expected sheet

const byLang = (list: readonly LV[]): LV[] =>
  list
    .map(({ lang, value }) => ({ lang: norm(lang), value }))
    .sort((a, b) => (a.lang < b.lang ? -1 : a.lang > b.lang ? 1 : 0));

/** Texts upserted per language: the languages sent replace theirs, the others stay. */
const mergeTexts = (prior: readonly LV[], sent: readonly LV[]): LV[] => {
  const named = new Set(sent.map((t) => norm(t.lang)));
  return byLang([...prior.filter((t) => !named.has(norm(t.lang))), ...sent]);
};

const definitionOf = (ftidref: string) =>
  Object.hasOwn(DEFINED, ftidref) ? DEFINED[ftidref as DefinedFtidref] : undefined;

function expectedFeature(o: OccurrenceIn): Sheet['features'][number] {
  const def = definitionOf(o.ftidref);
  return {
    ftidref: o.ftidref,
    funit: o.funit ?? def?.unit ?? null,
    names: byLang((def?.names ?? []).map(({ lang, name }) => ({ lang, value: name }))),
    values: byLang(o.values),
    details: o.details ? { ...o.details, valueDetails: byLang(o.details.valueDetails) } : null,
  };
}

interface ExpectedOf {
  id: number;
  supplierPid: string;
  createdAt: string;
  updatedAt: string;
  /** The texts the product had before an upserting write (MCP update_product, bulk update). */
  priorShort?: LV[];
  priorLong?: LV[];
}

function expectedSheet(input: SheetIn, of: ExpectedOf): Sheet {
  const shortTexts = of.priorShort ? mergeTexts(of.priorShort, input.shortTexts) : byLang(input.shortTexts);
  const longTexts = of.priorLong ? mergeTexts(of.priorLong, input.longTexts) : byLang(input.longTexts);
  const chosen = input.groupSlots.map((slot) => groups[slot]!);
  return {
    product: {
      id: of.id,
      supplierPid: of.supplierPid,
      ...input.fields,
      name: shortTexts.find((t) => t.lang === 'deu')?.value ?? shortTexts[0]?.value ?? '',
      masterProduct: true,
      variantCount: 0,
      masterProductId: null,
      createdAt: of.createdAt,
      updatedAt: of.updatedAt,
    },
    shortTexts,
    longTexts,
    features: input.features.map(expectedFeature),
    group: chosen[0] ?? null,
    groups: chosen.map((g) => ({ ...g, catalogGroupId: null })),
    ...input.sheetFields,
    keywords: byLang(input.keywords),
    media: input.media.map((m) => ({ ...m, descriptions: byLang(m.descriptions) })),
    fragments: input.fragments,
    variants: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Writers

/** The parts as create_product, update_product and bulk documents take them. */
function flatParts(
  input: SheetIn,
  omitEmpty: boolean,
  singleGroupAsGroupId: boolean,
): Record<string, unknown> {
  const groupIds = input.groupSlots.map((slot) => groups[slot]!.id);
  const parts: Record<string, unknown> = {
    ...input.fields,
    shortTexts: input.shortTexts,
    longTexts: input.longTexts,
    allFeatures: input.features,
    groupIds,
    ...input.sheetFields,
    keywords: input.keywords,
    media: input.media,
    fragments: input.fragments,
  };
  if (singleGroupAsGroupId && groupIds.length === 1) {
    delete parts.groupIds;
    parts.groupId = groupIds[0];
  }
  if (omitEmpty) {
    // On a create, a part not sent is an empty part.
    for (const [key, value] of Object.entries(parts)) {
      if (value === null || (Array.isArray(value) && value.length === 0)) delete parts[key];
    }
  }
  return parts;
}

/** The body of PUT /sheet; with `readOnly`, the read-only parts as GET answered them (ignored). */
function sheetBody(input: SheetIn, supplierPid: string, readOnly: Sheet | undefined, sendGroup: boolean) {
  const chosen = input.groupSlots.map((slot) => groups[slot]!);
  const product: Record<string, unknown> = { supplierPid };
  for (const [key, value] of Object.entries(input.fields)) {
    // An optional field absent from the sheet is cleared, as null is.
    if (value !== null || readOnly) product[key] = value;
  }
  const body: Record<string, unknown> = {
    product: readOnly ? { ...readOnly.product, ...product } : product,
    shortTexts: input.shortTexts,
    longTexts: input.longTexts,
    features: input.features.map((o) => (readOnly ? { ...o, names: expectedFeature(o).names } : o)),
    groups: chosen.map((g) => (readOnly ? { ...g, catalogGroupId: null } : { id: g.id })),
    keywords: input.keywords,
    media: input.media,
    fragments: input.fragments,
  };
  for (const [key, value] of Object.entries(input.sheetFields)) {
    // As the product's fields: absent is cleared, as null is.
    if (value !== null || readOnly) body[key] = value;
  }
  if (sendGroup) body.group = chosen[0] ? (readOnly ? chosen[0] : { id: chosen[0].id }) : null;
  if (readOnly) body.variants = readOnly.variants;
  return body;
}

interface BulkResult {
  supplierPid: string | null;
  id: number | null;
  status: number;
  error?: string;
}

async function bulk(documents: Record<string, unknown>[]): Promise<BulkResult[]> {
  const res = await rest<BulkResult[]>('POST', '/api/product/bulk', documents);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

// ---------------------------------------------------------------------------------------------
// Readers

async function restSheet(id: number): Promise<Sheet> {
  const res = await rest<Sheet>('GET', `/api/product/${id}/sheet`);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
}

async function mcpSheet(id: number): Promise<Sheet> {
  return ok<Sheet>(client, 'get_product', { id });
}

/** Both reads equal the expected sheet. */
async function expectReads(id: number, expected: Sheet, what: string): Promise<Sheet> {
  const viaRest = await restSheet(id);
  expect(viaRest, `${what}: REST GET /sheet`).toEqual(expected);
  expect(await mcpSheet(id), `${what}: MCP get_product`).toEqual(expected);
  return viaRest;
}

const createdBare = async (supplierPid: string): Promise<number> => {
  const res = await rest<{ id: number }>('POST', '/api/product', { supplierPid });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
};

// ---------------------------------------------------------------------------------------------

describe('the product sheet reads back as it was written, through every path', () => {
  it('PUT /sheet, create_product, update_product and bulk create/update read back through REST and MCP', async () => {
    const started = Date.now();
    let occurrences = 0;
    let repeated = 0;
    await fc.assert(
      fc.asyncProperty(
        sheetArb,
        sheetArb,
        fc.record({
          omitEmpty: fc.boolean(),
          groupIdOnCreate: fc.boolean(),
          readOnlyInPut: fc.boolean(),
          sendGroup: fc.boolean(),
        }),
        async (sheet, prior, flags) => {
          occurrences += sheet.features.length;
          repeated += sheet.features.length - new Set(sheet.features.map((f) => f.ftidref)).size;
          // t0: bulk creates the products the updates start from (with `prior`) and one with `sheet`.
          server.clock.advance(1000);
          const t0 = server.clock.now().toISOString();
          const pids = {
            put: nextPid('put'),
            mcpUpdate: nextPid('mcp-u'),
            bulkUpdate: nextPid('bulk-u'),
            bulkCreate: nextPid('bulk-c'),
            mcpCreate: nextPid('mcp-c'),
          };
          const priorParts = flatParts(prior, flags.omitEmpty, flags.groupIdOnCreate);
          const first = await bulk([
            { supplierPid: pids.put, ...priorParts },
            { supplierPid: pids.mcpUpdate, ...priorParts },
            { supplierPid: pids.bulkUpdate, ...priorParts },
            { supplierPid: pids.bulkCreate, ...flatParts(sheet, flags.omitEmpty, flags.groupIdOnCreate) },
          ]);
          expect(
            first.map((r) => r.status),
            JSON.stringify(first),
          ).toEqual([201, 201, 201, 201]);
          const [putId, mcpUpdateId, bulkUpdateId, bulkCreateId] = first.map((r) => r.id!) as [
            number,
            number,
            number,
            number,
          ];
          const priorRead = await restSheet(putId);
          const priorOf = (id: number, supplierPid: string) =>
            expectedSheet(prior, { id, supplierPid, createdAt: t0, updatedAt: t0 });
          expect(priorRead, 'bulk create of the prior sheet').toEqual(priorOf(putId, pids.put));

          // t1: every write path with `sheet`.
          server.clock.advance(1000);
          const t1 = server.clock.now().toISOString();
          const renamed = { put: `${pids.put}-r`, mcpUpdate: `${pids.mcpUpdate}-r` };

          const put = await rest<Sheet>(
            'PUT',
            `/api/product/${putId}/sheet`,
            sheetBody(sheet, renamed.put, flags.readOnlyInPut ? priorRead : undefined, flags.sendGroup),
          );
          expect(put.status, put.text).toBe(200);

          const created = await call<Sheet>(client, 'create_product', {
            supplierPid: pids.mcpCreate,
            ...flatParts(sheet, flags.omitEmpty, flags.groupIdOnCreate),
          });
          expect(created.isError, created.text).toBe(false);

          const updated = await call<Sheet>(client, 'update_product', {
            id: mcpUpdateId,
            ...flatParts(sheet, false, false),
            supplierPid: renamed.mcpUpdate,
          });
          expect(updated.isError, updated.text).toBe(false);

          const second = await bulk([{ supplierPid: pids.bulkUpdate, ...flatParts(sheet, false, false) }]);
          expect(second, 'bulk update').toEqual([
            { supplierPid: pids.bulkUpdate, id: bulkUpdateId, status: 200 },
          ]);

          const priorTexts = { priorShort: prior.shortTexts, priorLong: prior.longTexts };
          const expected = {
            put: expectedSheet(sheet, { id: putId, supplierPid: renamed.put, createdAt: t0, updatedAt: t1 }),
            mcpCreate: expectedSheet(sheet, {
              id: created.data.product.id,
              supplierPid: pids.mcpCreate,
              createdAt: t1,
              updatedAt: t1,
            }),
            mcpUpdate: expectedSheet(sheet, {
              id: mcpUpdateId,
              supplierPid: renamed.mcpUpdate,
              createdAt: t0,
              updatedAt: t1,
              ...priorTexts,
            }),
            bulkCreate: expectedSheet(sheet, {
              id: bulkCreateId,
              supplierPid: pids.bulkCreate,
              createdAt: t0,
              updatedAt: t0,
            }),
            bulkUpdate: expectedSheet(sheet, {
              id: bulkUpdateId,
              supplierPid: pids.bulkUpdate,
              createdAt: t0,
              updatedAt: t1,
              ...priorTexts,
            }),
          };
          // The writes' own answers.
          expect(put.body.data, 'PUT /sheet answer').toEqual(expected.put);
          expect(created.data, 'create_product answer').toEqual(expected.mcpCreate);
          expect(updated.data, 'update_product answer').toEqual(expected.mcpUpdate);

          const reads = {
            put: await expectReads(putId, expected.put, 'PUT /sheet'),
            mcpCreate: await expectReads(created.data.product.id, expected.mcpCreate, 'create_product'),
            mcpUpdate: await expectReads(mcpUpdateId, expected.mcpUpdate, 'update_product'),
            bulkCreate: await expectReads(bulkCreateId, expected.bulkCreate, 'bulk create'),
            bulkUpdate: await expectReads(bulkUpdateId, expected.bulkUpdate, 'bulk update'),
          };

          // t2: a sheet read and sent back as it is reads back the same (updatedAt may move).
          server.clock.advance(1000);
          const t2 = server.clock.now().toISOString();
          const back = await rest<Sheet>('PUT', `/api/product/${mcpUpdateId}/sheet`, reads.mcpUpdate);
          expect(back.status, back.text).toBe(200);
          const again = await rest<Sheet>('GET', `/api/product/${mcpUpdateId}/sheet`);
          expect(again.body.data, 'GET, PUT, GET').toEqual({
            ...reads.mcpUpdate,
            product: { ...reads.mcpUpdate.product, updatedAt: again.body.data!.product.updatedAt },
          });
          expect([reads.mcpUpdate.product.updatedAt, t2]).toContain(again.body.data!.product.updatedAt);
          expect(back.body.data).toEqual(again.body.data);
          expect(back.headers.get('etag')).toBeTruthy();
          expect(again.headers.get('etag')).toBe(back.headers.get('etag'));
          expect(await mcpSheet(mcpUpdateId)).toEqual(again.body.data);
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS },
    );
    console.info(
      `sheet round trip: ${NUM_RUNS} runs, ${occurrences} feature occurrences (${repeated} repeated ftidrefs), ` +
        `${Date.now() - started} ms`,
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------

describe("the spec's single feature routes address the first occurrence of each ftidref", () => {
  const LANG_QUERIES = ['deu', 'eng', 'fra', 'ita', 'zxx', 'spa', 'ger', 'FRE'];

  it('GET features, features/{ftidref} and features/{ftidref}/{lang} agree with the sheet', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(occurrenceArb(fc.constantFrom(...FTIDREFS)), { maxLength: 6 }),
        fc.boolean(),
        async (features, viaMcp) => {
          const supplierPid = nextPid('features');
          let id: number;
          if (viaMcp) {
            id = (await ok<Sheet>(client, 'create_product', { supplierPid, allFeatures: features })).product
              .id;
          } else {
            id = await createdBare(supplierPid);
            const put = await rest('PUT', `/api/product/${id}/sheet`, {
              product: { supplierPid },
              shortTexts: [],
              longTexts: [],
              features,
              groups: [],
              manufacturerName: null,
              keywords: [],
              media: [],
              fragments: [],
            });
            expect(put.status, put.text).toBe(200);
          }
          const sheet = await restSheet(id);
          expect(sheet.features).toEqual(features.map(expectedFeature));

          // The first occurrences, in the order of the sheet.
          const firsts: FeatureDto[] = [];
          for (const { ftidref, funit, names, values } of sheet.features) {
            if (!firsts.some((f) => f.ftidref === ftidref)) firsts.push({ ftidref, funit, names, values });
          }
          const list = await rest<FeatureDto[]>('GET', `/api/product/${id}/features`);
          expect(list.status, list.text).toBe(200);
          expect(list.body.data, 'GET features').toEqual(firsts);

          for (const first of firsts) {
            const path = `/api/product/${id}/features/${encodeURIComponent(first.ftidref)}`;
            const one = await rest<FeatureDto>('GET', path);
            expect(one.status, one.text).toBe(200);
            expect(one.body.data, `GET features/${first.ftidref}`).toEqual(first);
            for (const query of LANG_QUERIES) {
              const lang = norm(query);
              const own = first.values.find((v) => v.lang === lang);
              const neutral = first.values.find((v) => v.lang === 'zxx');
              const res = await rest<LV>('GET', `${path}/${query}`);
              const what = `GET features/${first.ftidref}/${query}`;
              if (own ?? neutral) {
                expect(res.status, `${what}: ${res.text}`).toBe(200);
                expect(res.body.data, what).toEqual(own ?? neutral);
              } else {
                expect(res.status, `${what}: ${res.text}`).toBe(404);
                expect(res.body.code, what).toBe('FEATURE_VALUE_NOT_FOUND');
              }
            }
          }
          const absent = FTIDREFS.find((f) => !firsts.some((first) => first.ftidref === f))!;
          const none = await rest('GET', `/api/product/${id}/features/${encodeURIComponent(absent)}`);
          expect(none.status, none.text).toBe(404);
          expect(none.body.code).toBe('FEATURE_NOT_FOUND');
        },
      ),
      { seed: SEED + 1, numRuns: NUM_RUNS },
    );
    console.info(`feature routes: ${NUM_RUNS} runs, ${Date.now() - started} ms`);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------

describe('refused sheet writes change nothing', () => {
  /** A product with something in every part, and a different sheet to try to write over it. */
  async function filledProduct(): Promise<{ id: number; supplierPid: string; before: Sheet; other: object }> {
    const supplierPid = nextPid('refused');
    const made = await ok<Sheet>(client, 'create_product', {
      supplierPid,
      shortTexts: [{ lang: 'deu', value: 'Bohrer' }],
      longTexts: [{ lang: 'eng', value: 'A <b>drill</b> & more' }],
      allFeatures: [
        { ftidref: 'X/1 #a', values: [{ lang: 'deu', value: '1' }] },
        { ftidref: 'X/1 #a', values: [{ lang: 'zxx', value: '2' }], details: null },
      ],
      groupIds: [groups[1]!.id, groups[0]!.id],
      manufacturerName: 'ACME',
      keywords: [{ lang: 'deu', value: 'Akku' }],
      media: [{ type: 'image/jpeg', source: 'a.jpg', descriptions: [], purpose: 'normal', order: 1 }],
      fragments: [{ place: 'USER_DEFINED_EXTENSIONS', xml: '<UDX.A>ä &amp; "b"</UDX.A>' }],
    });
    const id = made.product.id;
    const before = await restSheet(id);
    const other = sheetBody(
      {
        fields: { supplierIdRef: 'S' },
        shortTexts: [{ lang: 'eng', value: 'Other' }],
        longTexts: [],
        features: [{ ftidref: 'Y', values: [] }],
        groupSlots: [2],
        sheetFields: {},
        keywords: [],
        media: [],
        fragments: [],
      },
      `${supplierPid}-other`,
      undefined,
      false,
    );
    return { id, supplierPid, before, other };
  }

  it('PUT /sheet with an old ETag in If-Match answers 412', async () => {
    const { id, before, other } = await filledProduct();
    const first = await rest('GET', `/api/product/${id}/sheet`);
    const oldEtag = first.headers.get('etag')!;
    expect(oldEtag).toBeTruthy();
    // A change since: the keywords (through the sheet, with the ETag it read).
    server.clock.advance(1000);
    const changed = await rest<Sheet>(
      'PUT',
      `/api/product/${id}/sheet`,
      { ...before, keywords: [{ lang: 'eng', value: 'battery' }] },
      { 'if-match': oldEtag },
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(oldEtag);
    const current = await restSheet(id);
    expect(current.keywords).toEqual([{ lang: 'eng', value: 'battery' }]);

    server.clock.advance(1000);
    const stale = await rest('PUT', `/api/product/${id}/sheet`, other, { 'if-match': oldEtag });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.body.code).toBe('PRECONDITION_FAILED');
    expect(await restSheet(id)).toEqual(current);
    expect(await mcpSheet(id)).toEqual(current);

    // The current ETag is taken.
    const fresh = await rest('PUT', `/api/product/${id}/sheet`, other, {
      'if-match': changed.headers.get('etag')!,
    });
    expect(fresh.status, fresh.text).toBe(200);
  });

  it('PUT /sheet naming an unknown group answers 404', async () => {
    const { id, before, other } = await filledProduct();
    server.clock.advance(1000);
    const res = await rest('PUT', `/api/product/${id}/sheet`, {
      ...other,
      groups: [{ id: groups[3]!.id }, { id: 999_999 }],
    });
    expect(res.status, res.text).toBe(404);
    expect(res.body.code).toBe('GROUP_NOT_FOUND');
    expect(await restSheet(id)).toEqual(before);
    expect(await mcpSheet(id)).toEqual(before);
  });

  it('update_product with both features and allFeatures is a validation error', async () => {
    const { id, before } = await filledProduct();
    server.clock.advance(1000);
    const res = await call(client, 'update_product', {
      id,
      keywords: [{ lang: 'fra', value: 'perceuse' }],
      features: [{ ftidref: 'X/1 #a', values: [{ lang: 'eng', value: 'one' }] }],
      allFeatures: [{ ftidref: 'Z', values: [] }],
    });
    expect(res.isError, res.text).toBe(true);
    expect(res.data).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(await restSheet(id)).toEqual(before);
    expect(await mcpSheet(id)).toEqual(before);
  });

  it('a VIEWER reads the sheet but cannot PUT it; without a token 401; an unknown product 404', async () => {
    const { id, before, other } = await filledProduct();
    await server.addUser('sheet-viewer', 'VIEWER');
    const viewer = await server.login('sheet-viewer', 'sheet-viewer-password');
    const read = await server.request<Sheet>('GET', `/api/product/${id}/sheet`, { token: viewer });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual(before);
    const write = await server.request('PUT', `/api/product/${id}/sheet`, { token: viewer, body: other });
    expect(write.status, write.text).toBe(403);
    expect(write.body.success).toBe(false);

    const anonymousRead = await server.request('GET', `/api/product/${id}/sheet`);
    expect(anonymousRead.status, anonymousRead.text).toBe(401);
    const anonymousWrite = await server.request('PUT', `/api/product/${id}/sheet`, { body: other });
    expect(anonymousWrite.status, anonymousWrite.text).toBe(401);
    expect(await restSheet(id)).toEqual(before);

    const missing = await rest('PUT', '/api/product/999999/sheet', other);
    expect(missing.status, missing.text).toBe(404);
    expect(missing.body.code).toBe('PRODUCT_NOT_FOUND');
    const missingRead = await rest('GET', '/api/product/999999/sheet');
    expect(missingRead.status, missingRead.text).toBe(404);
  });
});
