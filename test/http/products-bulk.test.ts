import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

/** POST /api/product/bulk and /api/product/bulk-delete (issue 12): per-document results, one transaction. */

interface Result {
  supplierPid: string | null;
  id: number | null;
  status: number;
  error?: string;
  code?: string;
}
interface Product {
  id: number;
  supplierPid: string;
  ean: string | null;
  masterProductId: number | null;
  name: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = (prefix = 'B') => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });
const bulk = async (documents: unknown): Promise<Result[]> => {
  const res = await call<Result[]>('POST', '/api/product/bulk', documents);
  expect(res.status, res.text).toBe(200);
  return res.body.data!;
};
const bySupplierPid = async (supplierPid: string): Promise<Product[]> =>
  (await call<Product[]>('GET', `/api/product?all=true&supplierPid=${encodeURIComponent(supplierPid)}`)).body
    .data!;
const newGroup = async (name = 'G') =>
  (await call<{ id: number }>('POST', '/api/group', { name })).body.data!.id;

/** What a product holds, without what differs between two products of equal content. */
async function content(id: number) {
  const product = (await call<Product & Record<string, unknown>>('GET', `/api/product/${id}`)).body.data!;
  const {
    id: _id,
    supplierPid: _pid,
    createdAt: _c,
    updatedAt: _u,
    masterProductId: _m,
    ...fields
  } = product;
  const shortTexts = (await call('GET', `/api/product/${id}/texts/short`)).body.data;
  const longTexts = (await call('GET', `/api/product/${id}/texts/long`)).body.data;
  const features = (await call('GET', `/api/product/${id}/features`)).body.data;
  return { fields, shortTexts, longTexts, features, groupOf: await groupOf(id) };
}
async function groupOf(id: number): Promise<number | null> {
  const groups = (await call<{ id: number }[]>('GET', '/api/group')).body.data!;
  for (const g of groups) {
    const members = (await call<{ id: number }[]>('GET', `/api/group/${g.id}/products`)).body.data!;
    if (members.some((p) => p.id === id)) return g.id;
  }
  return null;
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('POST /api/product/bulk', () => {
  it('creates and updates by supplierPid with texts, features and group, one result per document in order', async () => {
    const group = await newGroup('Bulk');
    const a = pid();
    const b = pid();
    const first = await bulk([
      {
        supplierPid: a,
        ean: '4006381333115',
        shortTexts: [
          { lang: 'deu', value: 'Bohrer' },
          { lang: 'eng', value: 'Drill' },
        ],
        longTexts: [{ lang: 'ger', value: '<p>Lang</p>' }],
        features: [{ ftidref: 'EF-VOLT', funit: 'V', values: [{ lang: 'deu', value: '18' }] }],
        groupId: group,
      },
      { supplierPid: b, name: 'Zweiter', language: 'deu' },
    ]);
    expect(first.map((r) => [r.supplierPid, r.status])).toEqual([
      [a, 201],
      [b, 201],
    ]);
    const idA = first[0]!.id!;
    const sheet = await content(idA);
    expect(sheet.fields).toMatchObject({ ean: '4006381333115', name: 'Bohrer' });
    expect(sheet.longTexts).toEqual([{ lang: 'deu', value: '<p>Lang</p>' }]);
    expect(sheet.features).toMatchObject([
      { ftidref: 'EF-VOLT', funit: 'V', values: [{ lang: 'deu', value: '18' }] },
    ]);
    expect(sheet.groupOf).toBe(group);

    // An update changes what is sent and keeps the rest; null takes the product out of its group.
    const second = await bulk([
      { supplierPid: a, ean: null, shortTexts: [{ lang: 'eng', value: 'Cordless drill' }], groupId: null },
    ]);
    expect(second).toEqual([{ supplierPid: a, id: idA, status: 200 }]);
    const after = await content(idA);
    expect(after.fields).toMatchObject({ ean: null, name: 'Bohrer' });
    expect(after.shortTexts).toEqual([
      { lang: 'deu', value: 'Bohrer' },
      { lang: 'eng', value: 'Cordless drill' },
    ]);
    expect(after.features).toEqual(sheet.features);
    expect(after.groupOf).toBeNull();
  });

  it('refuses bad documents one by one: they leave nothing, the valid ones of the batch are stored', async () => {
    const [good1, good2, badLang, badGroup, dup, badMaster] = [pid(), pid(), pid(), pid(), pid(), pid()];
    const results = await bulk([
      { supplierPid: good1 },
      {
        supplierPid: badLang,
        shortTexts: [
          { lang: 'deu', value: 'x' },
          { lang: 'xx', value: 'y' },
        ],
      },
      { supplierPid: badGroup, shortTexts: [{ lang: 'deu', value: 'stays out' }], groupId: 999_999 },
      'not a document',
      { name: 'no key' },
      { supplierPid: dup, unknownField: 1 },
      { supplierPid: good2, features: [{ ftidref: 'EF-A', values: [{ lang: 'eng', value: '1' }] }] },
      { supplierPid: good1, ean: '1' },
      { supplierPid: badMaster, masterSupplierPid: 'NOBODY-HAS-THIS' },
      { supplierPid: 'x\u0000y' },
      { supplierPid: 'lone\ud800', shortTexts: [{ lang: 'deu', value: 'stays out' }] },
    ]);
    expect(results.map((r) => [r.supplierPid, r.status, r.code])).toEqual([
      [good1, 201, undefined],
      [badLang, 400, 'INVALID_LANGUAGE'],
      [badGroup, 404, 'GROUP_NOT_FOUND'],
      [null, 400, 'VALIDATION_FAILED'],
      [null, 400, 'VALIDATION_FAILED'],
      [dup, 400, 'VALIDATION_FAILED'],
      [good2, 201, undefined],
      [good1, 400, 'VALIDATION_FAILED'],
      [badMaster, 404, 'PRODUCT_NOT_FOUND'],
      ['x\u0000y', 400, 'VALIDATION_FAILED'],
      ['lone\ud800', 400, 'VALIDATION_FAILED'],
    ]);
    expect(results[10]!.error).toMatch(/^supplierPid must not contain half of a surrogate pair/);
    expect(results[3]!.error).toBe('Document 3 of this batch must be a JSON object, not a string');
    expect(results[4]!.error).toBe('supplierPid is required');
    expect(results[5]!.error).toBe("Unknown field 'unknownField'");
    expect(results[7]!.error).toBe(`supplierPid '${good1}' is already the key of document 0 of this batch`);
    expect(results[8]!.error).toBe("masterSupplierPid 'NOBODY-HAS-THIS' names no product");
    for (const refused of [badLang, badGroup, dup, badMaster])
      expect(await bySupplierPid(refused)).toEqual([]);
    expect((await bySupplierPid(good1))[0]!.ean).toBeNull();
    expect(await bySupplierPid(good2)).toHaveLength(1);
  });

  it('creates variants by masterSupplierPid, also before their main product in the batch', async () => {
    const [main, v1, v2, stored] = [pid('M'), pid('V'), pid('V'), pid('S')];
    const storedId = (await bulk([{ supplierPid: stored }]))[0]!.id!;
    server.clock.advance(1000);
    const results = await bulk([
      { supplierPid: v1, masterSupplierPid: main, name: 'first variant' },
      { supplierPid: main, name: 'main' },
      { supplierPid: v2, masterSupplierPid: stored },
      { supplierPid: pid('VV'), masterSupplierPid: v1 },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 400]);
    // A new variant is a change to its main product, also to one stored before the batch.
    const storedNow = (await call<{ updatedAt: string }>('GET', `/api/product/${storedId}`)).body.data!;
    expect(storedNow.updatedAt).toBe(server.clock.now().toISOString());
    expect(results[3]!.code).toBe('VARIANT_OF_VARIANT');
    const [variant] = await bySupplierPid(v1);
    expect(variant!.masterProductId).toBe(results[1]!.id);
    expect((await bySupplierPid(v2))[0]!.masterProductId).toBe(storedId);
    // The main product cannot be changed by a later upsert; naming the same one is fine.
    const again = await bulk([
      { supplierPid: v1, masterSupplierPid: stored },
      { supplierPid: v1 === v2 ? 'never' : v2, masterSupplierPid: stored, ean: '42' },
      { supplierPid: main, masterSupplierPid: stored },
    ]);
    expect(again.map((r) => r.status)).toEqual([400, 200, 400]);
    expect(again[0]!.error).toBe(
      `Product '${v1}' exists with another main product: masterSupplierPid cannot change it`,
    );
    expect(again[2]!.error).toBe(
      `Product '${main}' exists as a main product: masterSupplierPid cannot change it`,
    );
  });

  it('accepts application/x-ndjson and answers the same; a bad line is a 400 naming the line', async () => {
    const [a, b] = [pid(), pid()];
    const body = `${JSON.stringify({ supplierPid: a, name: 'eins' })}\n\n${JSON.stringify({ supplierPid: b })}\n[]\nnull\n7\n`;
    const res = await server.request<Result[]>('POST', '/api/product/bulk', {
      token,
      rawBody: body,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data!.map((r) => [r.supplierPid, r.status, r.error])).toEqual([
      [a, 201, undefined],
      [b, 201, undefined],
      [null, 400, 'Document 2 of this batch must be a JSON object, not an array'],
      [null, 400, 'Document 3 of this batch must be a JSON object, not null'],
      [null, 400, 'Document 4 of this batch must be a JSON object, not a number'],
    ]);
    const bad = await server.request('POST', '/api/product/bulk', {
      token,
      rawBody: `${JSON.stringify({ supplierPid: pid() })}\n{"supplierPid": \n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      success: false,
      error: 'Line 2 of the body is not valid JSON',
      code: 'INVALID_JSON',
    });
  });

  it('refuses 1,001 documents, a body over 16 MiB and a body that is not an array, storing nothing', async () => {
    const prefix = pid('LIMIT');
    const many = Array.from({ length: 1001 }, (_, i) => ({ supplierPid: `${prefix}-${i}` }));
    const tooMany = await call('POST', '/api/product/bulk', many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({
      success: false,
      error: 'A batch holds at most 1000 documents, this one 1001: split it',
      code: 'BATCH_TOO_LARGE',
    });
    expect((await call<Product[]>('GET', `/api/product?q=${prefix}`)).body.data).toEqual([]);
    expect((await bulk(many.slice(0, 1000))).every((r) => r.status === 201)).toBe(true);

    const huge = JSON.stringify([
      { supplierPid: pid(), longTexts: [{ lang: 'deu', value: 'x'.repeat(17 * 2 ** 20) }] },
    ]);
    for (const type of ['application/json', 'application/x-ndjson']) {
      const res = await server.request('POST', '/api/product/bulk', {
        token,
        rawBody: type === 'application/json' ? huge : huge.slice(1, -1),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(413);
      expect(res.body).toEqual({
        success: false,
        error: 'Request body is larger than the limit of 16 MiB',
        code: 'BODY_TOO_LARGE',
      });
    }
    // Other routes keep their 8 MiB.
    const big = await call('POST', '/api/product', { supplierPid: pid(), name: 'x'.repeat(9 * 2 ** 20) });
    expect(big.status).toBe(413);

    const notArray = await call('POST', '/api/product/bulk', { supplierPid: pid() });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error).toBe('Request body must be a JSON array of product documents');
    expect(await bulk([])).toEqual([]);
  });

  it('lets concurrent batches with overlapping supplierPids neither duplicate nor lose a document', async () => {
    const keys = Array.from({ length: 40 }, () => pid('C'));
    const batches = [0, 1, 2, 3].map((n) =>
      keys.map((supplierPid) => ({
        supplierPid,
        ean: `batch-${n}`,
        shortTexts: [{ lang: 'eng', value: `b${n}` }],
      })),
    );
    const answers = await Promise.all(
      batches.map((batch) => call<Result[]>('POST', '/api/product/bulk', batch)),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data!.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    }
    for (const [i, supplierPid] of keys.entries()) {
      const stored = await bySupplierPid(supplierPid);
      expect(stored).toHaveLength(1);
      // Exactly one batch created it, and the stored values are one whole batch's, not a mix.
      expect(answers.filter((a) => a.body.data![i]!.status === 201)).toHaveLength(1);
      const n = stored[0]!.ean!.slice('batch-'.length);
      expect(stored[0]!.name).toBe(`b${n}`);
    }
  });

  it('stores what the single-product endpoints store, batch by batch, and touches the same products (fast-check)', async () => {
    const group = await newGroup('Property');
    const lang = fc.constantFrom('deu', 'eng', 'fra');
    const value = fc.string({ maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    const texts = fc.uniqueArray(fc.record({ lang, value }), { selector: (t) => t.lang, maxLength: 3 });
    const features = fc.uniqueArray(
      fc.record(
        {
          ftidref: fc.constantFrom('EF-1', 'EF-2', 'EF-3'),
          funit: fc.constantFrom('mm', 'V', null),
          values: texts,
        },
        { requiredKeys: ['ftidref', 'values'] },
      ),
      { selector: (f) => f.ftidref, maxLength: 3 },
    );
    // Every key may be missing (an update then changes only what is sent); null clears a field.
    const doc = fc.record(
      {
        ean: fc.option(fc.stringMatching(/^\d{1,13}$/), { nil: null }),
        manufacturerPid: fc.option(fc.constantFrom('M-1', 'M-2'), { nil: null }),
        name: fc.constantFrom('Bohrer', 'Drill', ' x '),
        language: fc.constantFrom('deu', 'ger', 'eng'),
        shortTexts: texts,
        longTexts: texts,
        features,
        grouped: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    type Doc = typeof doc extends fc.Arbitrary<infer D> ? D : never;
    // Updates of one kind only, too: whether they touch the product is what the single services decide.
    const keys = [
      'ean',
      'manufacturerPid',
      'name',
      'language',
      'shortTexts',
      'longTexts',
      'features',
      'grouped',
    ];
    const oneKind = fc
      .tuple(doc, fc.constantFrom(...(keys as (keyof Doc)[])))
      .map(([d, key]): Doc => ({ [key]: d[key] }));
    // Document 0 is a main product; the others may be its variants (and may name it again on update).
    const batch = fc.array(
      fc.record({
        create: doc,
        update: fc.oneof(doc, oneKind),
        variant: fc.boolean(),
        namesMaster: fc.boolean(),
      }),
      { minLength: 1, maxLength: 4 },
    );
    const fieldsOf = (d: Doc) => {
      const { shortTexts: _s, longTexts: _l, features: _f, grouped: _g, ...fields } = d;
      return fields;
    };
    const detailsOf = ({ shortTexts, longTexts, features, grouped }: Doc): Doc => ({
      shortTexts,
      longTexts,
      features,
      grouped,
    });
    const single = async (d: Doc, id: number) => {
      if (Object.keys(fieldsOf(d)).length > 0) {
        const res = await call('PUT', `/api/product/${id}`, fieldsOf(d));
        expect(res.status, res.text).toBe(200);
      }
      for (const t of d.shortTexts ?? [])
        await call('PUT', `/api/product/${id}/texts/short/${t.lang}`, { value: t.value });
      for (const t of d.longTexts ?? [])
        await call('PUT', `/api/product/${id}/texts/long/${t.lang}`, { value: t.value });
      for (const f of d.features ?? []) {
        const r = await call('PUT', `/api/product/${id}/features/${f.ftidref}`, {
          funit: f.funit,
          values: f.values,
        });
        expect(r.status, r.text).toBe(200);
      }
      if (d.grouped === true) await call('POST', `/api/group/${group}/products`, { productIds: [id] });
      else if (d.grouped === false && (await groupOf(id)) !== null)
        await call('DELETE', `/api/group/${group}/products/${id}`);
    };
    const toBulk = (d: Doc, supplierPid: string, masterSupplierPid?: string) => {
      const { grouped, ...rest } = d;
      const groupId = grouped === undefined ? undefined : grouped ? group : null;
      return { supplierPid, ...rest, groupId, masterSupplierPid };
    };
    /** Which products were touched by the updates (their updatedAt is the clock's new instant). */
    const touched = async (ids: number[], at: string) =>
      Promise.all(
        ids.map(
          async (id) =>
            (await call<{ updatedAt: string }>('GET', `/api/product/${id}`)).body.data!.updatedAt === at,
        ),
      );
    await fc.assert(
      fc.asyncProperty(batch, async (entries) => {
        const isVariant = entries.map((e, k) => k > 0 && e.variant);
        server.clock.advance(1000);
        // Through the single endpoints: create, then texts, features and group one call at a time.
        const singleIds: number[] = [];
        for (const [k, e] of entries.entries()) {
          const res = await call<Product>('POST', '/api/product', {
            supplierPid: pid('S'),
            ...fieldsOf(e.create),
            masterProductId: isVariant[k] ? singleIds[0] : undefined,
          });
          expect(res.status, res.text).toBe(201);
          singleIds.push(res.body.data!.id);
          await single(detailsOf(e.create), res.body.data!.id);
        }
        // The same as two bulk calls; variants come first in the batch, before their main product.
        const keys = entries.map(() => pid('P'));
        const masterOf = (k: number) => (isVariant[k] ? keys[0] : undefined);
        const order = [...entries.keys()].reverse();
        const created = await bulk(order.map((k) => toBulk(entries[k]!.create, keys[k]!, masterOf(k))));
        expect(created.map((r) => r.status)).toEqual(order.map(() => 201));
        const bulkIds = entries.map((_, k) => created[order.indexOf(k)]!.id!);

        server.clock.advance(1000);
        const at = server.clock.now().toISOString();
        for (const [k, e] of entries.entries()) await single(e.update, singleIds[k]!);
        const updated = await bulk(
          entries.map((e, k) => toBulk(e.update, keys[k]!, e.namesMaster ? masterOf(k) : undefined)),
        );
        expect(updated).toEqual(
          entries.map((_, k) => ({ supplierPid: keys[k], id: bulkIds[k], status: 200 })),
        );

        for (const k of entries.keys()) {
          expect(await content(bulkIds[k]!)).toEqual(await content(singleIds[k]!));
          const [master] = await bySupplierPid(keys[k]!);
          expect(master!.masterProductId).toBe(isVariant[k] ? bulkIds[0] : null);
        }
        expect(await touched(bulkIds, at)).toEqual(await touched(singleIds, at));
      }),
      { numRuns: 30 },
    );
  });

  it('raises the change counter once per call that changed something, not for one that changed nothing', async () => {
    const counter = async () =>
      (await call<{ active: boolean; changeCounter: number }[]>('GET', '/api/workspace')).body.data!.find(
        (w) => w.active,
      )!.changeCounter;
    const [a, b, c] = [pid('CC'), pid('CC'), pid('CC')];
    const start = await counter();
    const made = await bulk([
      { supplierPid: a, shortTexts: [{ lang: 'deu', value: 'eins' }] },
      {
        supplierPid: b,
        masterSupplierPid: a,
        features: [{ ftidref: 'EF-CC', values: [{ lang: 'eng', value: '1' }] }],
      },
    ]);
    expect(made.map((r) => r.status)).toEqual([201, 201]);
    expect(await counter()).toBe(start + 1);
    await bulk([
      { supplierPid: a, ean: '1' },
      { supplierPid: b, name: 'zwei', language: 'deu' },
    ]);
    expect(await counter()).toBe(start + 2);
    // Refused documents write nothing, and an existing product sent without changes is no change.
    const none = await bulk([
      { supplierPid: c, shortTexts: [{ lang: 'deu', value: 'x' }], groupId: 999_999 },
      { supplierPid: pid('CC'), masterSupplierPid: 'NOBODY-HAS-THIS' },
      { supplierPid: a, language: 'eng' },
      'not a document',
    ]);
    expect(none.map((r) => r.status)).toEqual([404, 404, 200, 400]);
    expect(await counter()).toBe(start + 2);
  });
});

describe('POST /api/product/bulk-delete', () => {
  it('deletes by supplierPid or id with variants, one result per entry, and records the deletions', async () => {
    const since = server.clock.now().toISOString();
    const [main, variant, lone] = [pid('D'), pid('D'), pid('D')];
    const made = await bulk([
      { supplierPid: main },
      { supplierPid: variant, masterSupplierPid: main },
      { supplierPid: lone },
    ]);
    const [mainId, variantId, loneId] = made.map((r) => r.id!);
    const res = await call<Result[]>('POST', '/api/product/bulk-delete', {
      supplierPids: [main, 'UNKNOWN-PID', variant],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { supplierPid: main, id: mainId, status: 200 },
      {
        supplierPid: 'UNKNOWN-PID',
        id: null,
        status: 404,
        error: "No product has supplierPid 'UNKNOWN-PID'",
        code: 'PRODUCT_NOT_FOUND',
      },
      { supplierPid: variant, id: variantId, status: 200 },
    ]);
    const byId = await call<Result[]>('POST', '/api/product/bulk-delete', { ids: [loneId, mainId] });
    expect(byId.body.data).toEqual([
      { supplierPid: lone, id: loneId, status: 200 },
      {
        supplierPid: null,
        id: mainId,
        status: 404,
        error: `Product ${mainId} not found`,
        code: 'PRODUCT_NOT_FOUND',
      },
    ]);
    const deleted = (await call<{ id: number }[]>('GET', `/api/product/deleted?since=${since}`)).body.data!;
    expect(deleted.map((d) => d.id).sort((x, y) => x - y)).toEqual(
      [mainId!, variantId!, loneId!].sort((x, y) => x - y),
    );
  });

  it('refuses both or neither key list, empty lists and more than 1,000 entries', async () => {
    const keep = pid('K');
    await bulk([{ supplierPid: keep }]);
    for (const body of [{}, { supplierPids: [keep], ids: [1] }]) {
      const res = await call('POST', '/api/product/bulk-delete', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Send exactly one of supplierPids and ids');
    }
    expect((await call('POST', '/api/product/bulk-delete', { ids: [] })).status).toBe(400);
    const tooMany = await call('POST', '/api/product/bulk-delete', {
      supplierPids: [keep, ...Array.from({ length: 1000 }, (_, i) => `none-${i}`)],
    });
    expect(tooMany.status).toBe(400);
    expect(await bySupplierPid(keep)).toHaveLength(1);
  });

  it('is refused to a viewer, as every catalogue write', async () => {
    await server.addUser('bulkviewer', 'VIEWER', 'viewer-password-1');
    const viewer = await server.login('bulkviewer', 'viewer-password-1');
    for (const [path, body] of [
      ['/api/product/bulk', [{ supplierPid: pid() }]],
      ['/api/product/bulk-delete', { supplierPids: ['x'] }],
    ] as const) {
      const res = await server.request('POST', path, { token: viewer, body });
      expect(res.status).toBe(403);
    }
  });
});
