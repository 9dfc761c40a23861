import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';
import type { GridRow, GridRowsPage } from '../../src/window/catalogue-api.types.js';
import { expectOrder, nameOf, type Model, type Sort } from './product-grid.fixtures.js';

/**
 * The product grid's endpoints (GET /ui/api/products/rows and /count) against a small catalogue
 * built through REST, compared with an expectation computed here from what was written.
 */

const ECLASS = '0173-1#02-AAF040#004';

let server: TestServer;
let token: string;
let window: WindowClient;
let models: Model[] = [];
const groups: Record<string, number> = {};
let defaultLang: string;

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await server.request<T>(method, path, { token, body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data as T;
}

async function group(name: string, parentId?: number): Promise<number> {
  return (await rest<{ id: number }>('POST', '/api/group', { name, parentId })).id;
}

/** All rows of a query, by cursor pages of `limit`: each id once. */
async function allRows(query: string, limit = 7): Promise<GridRow[]> {
  const rows: GridRow[] = [];
  let after: string | null = null;
  for (let i = 0; i < 100; i++) {
    const page: { status: number; body: { data?: GridRowsPage } } = await window.request<GridRowsPage>(
      'GET',
      `/products/rows?${query}&limit=${limit}${after ? `&after=${after}` : ''}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    rows.push(...page.body.data!.rows);
    after = page.body.data!.next;
    if (after === null) break;
  }
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  return rows;
}

async function count(query: string): Promise<number> {
  const res = await window.request<{ count: number }>('GET', `/products/count?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data!.count;
}

beforeAll(async () => {
  server = await startServer({ window: true });
  token = await server.login();
  window = new WindowClient(server);
  await window.login();
  defaultLang = (await rest<{ defaultLanguage: string }>('GET', '/api/workspace')).defaultLanguage;
  groups.a = await group('Alpha');
  groups.a1 = await group('Alpha one', groups.a);
  groups.a11 = await group('Alpha one one', groups.a1);
  groups.b = await group('Beta');
  const docs: Array<Record<string, unknown>> = [];
  const texts: Array<Record<string, string>> = [
    { deu: 'Bohrer', eng: 'Drill' },
    { eng: 'Hammer' },
    { fra: 'Scie' },
    {},
    { deu: 'bohrer klein' },
    { deu: '100% Zufriedenheit', eng: 'under_score' },
    { deu: 'Zange', fra: 'Pince' },
    { eng: 'Äpfel & Birnen' },
    { deu: 'x'.repeat(210) + 'b' },
    { deu: 'x'.repeat(210) + 'a' },
    { deu: '' },
    { eng: 'Säge 😀' },
  ];
  const groupCycle = [groups.a, groups.a1, groups.a11, groups.b, null];
  for (let i = 0; i < 36; i++) {
    const t = texts[i % texts.length]!;
    docs.push({
      supplierPid: `SP-${String((i * 7) % 36).padStart(2, '0')}-${i % 3 === 0 ? 'x' : 'Y'}`,
      shortTexts: Object.entries(t).map(([lang, value]) => ({ lang, value })),
      groupId: groupCycle[i % groupCycle.length],
      ...(i % 4 === 0 ? { features: [{ ftidref: ECLASS, values: [{ lang: 'deu', value: '18' }] }] } : {}),
      ...(i % 9 === 5 ? { masterSupplierPid: docs[0]!.supplierPid } : {}),
    });
  }
  // In batches an instant apart, so that updatedAt differs (and ties within a batch).
  for (let i = 0; i < docs.length; i += 9) {
    server.clock.advance(60_000);
    const results = await rest<Array<{ id: number; status: number }>>(
      'POST',
      '/api/product/bulk',
      docs.slice(i, i + 9),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
  }
  const listed = await rest<
    Array<{ id: number; supplierPid: string; updatedAt: string; masterProductId: number | null }>
  >('GET', '/api/product?all=true');
  models = listed.map((p) => {
    const doc = docs.find((d) => d.supplierPid === p.supplierPid)!;
    return {
      id: p.id,
      supplierPid: p.supplierPid,
      texts: Object.fromEntries(
        (doc.shortTexts as Array<{ lang: string; value: string }>).map((e) => [e.lang, e.value]),
      ),
      groupId: (doc.groupId as number | null) ?? null,
      masterId: p.masterProductId,
      features: doc.features ? [ECLASS] : [],
      updatedAt: p.updatedAt,
    };
  });
  expect(models).toHaveLength(36);
}, 60_000);
afterAll(async () => server?.stop());

const SORTS: Sort[] = ['id', 'supplierPid', 'name', 'updated'];

describe('the grid', () => {
  for (const sort of SORTS) {
    for (const dir of ['asc', 'desc'] as const) {
      it(`sorts by ${sort} ${dir}, pages by cursor without gap or duplicate, and jumps by at`, async () => {
        const rows = await allRows(`sort=${sort}&dir=${dir}`);
        const expected = expectOrder(models, sort, dir === 'desc', defaultLang);
        expect(rows.map((r) => r.id)).toEqual(expected);
        for (const at of [0, 1, 17, 35]) {
          const page = await window.request<GridRowsPage>(
            'GET',
            `/products/rows?sort=${sort}&dir=${dir}&at=${at}&limit=5`,
          );
          expect(page.body.data!.rows.map((r) => r.id)).toEqual(expected.slice(at, at + 5));
          expect(page.body.data!.next === null).toBe(at + 5 >= expected.length);
        }
        const beyond = await window.request<GridRowsPage>(
          'GET',
          `/products/rows?sort=${sort}&dir=${dir}&at=36`,
        );
        expect(beyond.body.data).toEqual({ rows: [], next: null });
      });
    }
  }

  it('answers the columns: name with REST fallback, group name, variants', async () => {
    const rows = await allRows('lang=eng');
    const rest = await server.request<
      Array<{ id: number; name: string; variantCount: number; ean: string | null }>
    >('GET', '/api/product?all=true&lang=eng', { token });
    for (const row of rows) {
      const p = rest.body.data!.find((x) => x.id === row.id)!;
      const m = models.find((x) => x.id === row.id)!;
      expect(row.name).toBe(p.name);
      expect(row.variantCount).toBe(p.variantCount);
      expect(row.masterProductId).toBe(m.masterId);
      expect(row.groupId).toBe(m.groupId);
      const groupName = Object.entries(groups).find(([, id]) => id === m.groupId)?.[0];
      expect(row.group).toBe(
        groupName === undefined
          ? null
          : { a: 'Alpha', a1: 'Alpha one', a11: 'Alpha one one', b: 'Beta' }[groupName],
      );
    }
  });

  it('sorts by name in another language with the fallback, products without names first', async () => {
    for (const lang of ['fra', 'eng']) {
      const rows = await allRows(`sort=name&lang=${lang}`, 5);
      expect(rows.map((r) => r.id)).toEqual(expectOrder(models, 'name', false, lang));
      expect(rows.map((r) => r.name)).toEqual(
        rows.map((r) =>
          nameOf(
            models.find((m) => m.id === r.id)!,
            lang,
          ),
        ),
      );
    }
  });

  const FILTERS: Array<[string, (m: Model) => boolean]> = [
    ['q=bohrer', (m) => /bohrer/i.test(Object.values(m.texts).join('\n'))],
    ['q=sp-0', (m) => m.supplierPid.toLowerCase().includes('sp-0')],
    ['q=x', (m) => m.supplierPid.includes('x') || Object.values(m.texts).some((t) => t.includes('x'))],
    ['q=%25', (m) => Object.values(m.texts).some((t) => t.includes('%'))],
    ['q=_', (m) => Object.values(m.texts).some((t) => t.includes('_'))],
    ['q=r_s', (m) => Object.values(m.texts).some((t) => t.includes('r_s'))],
    ['q=%C3%A4pfel', () => false], // ä folds only for ASCII: "Äpfel" does not match "äpfel"
    ['q=%C3%84pfel', (m) => Object.values(m.texts).some((t) => t.includes('Äpfel'))],
    ['q=%F0%9F%98%80', (m) => Object.values(m.texts).some((t) => t.includes('😀'))],
    [`groupId=${0}`, () => false],
    ['main=true', (m) => m.masterId === null],
    ['textLang=fra&text=has', (m) => 'fra' in m.texts],
    ['textLang=FRE&text=lacks', (m) => !('fra' in m.texts)],
    [`ftidref=${encodeURIComponent(ECLASS)}&feature=has`, (m) => m.features.includes(ECLASS)],
    [`ftidref=${encodeURIComponent(ECLASS)}&feature=lacks`, (m) => !m.features.includes(ECLASS)],
    ['ftidref=nope&feature=has', () => false],
  ];

  it('filters alone and combined, and the count matches the rows', async () => {
    const filters: Array<[string, (m: Model) => boolean]> = [
      ...FILTERS.filter(([q]) => !q.startsWith('groupId')),
      [`groupId=${groups.a}`, (m) => m.groupId === groups.a],
      [`groupId=${groups.a}&subgroups=true`, (m) => [groups.a, groups.a1, groups.a11].includes(m.groupId!)],
      [`groupId=${groups.a1}&subgroups=true`, (m) => [groups.a1, groups.a11].includes(m.groupId!)],
      [`groupId=${groups.b}&subgroups=false`, (m) => m.groupId === groups.b],
    ];
    const since = [...new Set(models.map((m) => m.updatedAt))].sort()[2]!;
    filters.push([`updatedSince=${encodeURIComponent(since)}`, (m) => m.updatedAt >= since]);
    const combos = [...filters];
    for (let i = 0; i + 1 < filters.length; i += 2) {
      const [qa, fa] = filters[i]!;
      const [qb, fb] = filters[(i * 5 + 3) % filters.length]!;
      if (qa.split('=')[0] === qb.split('=')[0]) continue;
      combos.push([`${qa}&${qb}`, (m) => fa(m) && fb(m)]);
    }
    for (const [query, predicate] of combos) {
      const expected = models.filter(predicate).map((m) => m.id);
      const rows = await allRows(`${query}&sort=name&dir=desc`, 4);
      expect(
        rows.map((r) => r.id),
        query,
      ).toEqual(expectOrder(models.filter(predicate), 'name', true, defaultLang));
      expect(await count(query), query).toBe(expected.length);
    }
  });

  it('refuses bad parameters with 400 naming the parameter', async () => {
    const bad: Array<[string, string]> = [
      ['sort=price', 'sort'],
      ['dir=up', 'dir'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['at=-1', 'at'],
      ['at=1.5', 'at'],
      ['groupId=abc', 'groupId'],
      ['main=maybe', 'main'],
      ['updatedSince=yesterday', 'updatedSince'],
      ['textLang=xx&text=has', 'textLang'],
      ['textLang=deu', 'text'],
      ['text=has', 'textLang'],
      ['feature=has', 'ftidref'],
      ['ftidref=x', 'feature'],
      ['lang=klingon', 'lang'],
      ['subgroups=true', 'groupId'],
      ['after=nonsense!', 'after'],
      ['after=abc', 'after'],
      ['after=x&at=1', 'at'],
      ['unknown=1', ''],
    ];
    for (const [query, field] of bad) {
      const res = await window.request('GET', `/products/rows?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
      if (field) expect(res.body.field, query).toBe(field);
    }
    // A cursor of another sort.
    const page = await window.request<GridRowsPage>('GET', '/products/rows?sort=name&limit=2');
    const other = await window.request(
      'GET',
      `/products/rows?sort=supplierPid&after=${page.body.data!.next}`,
    );
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'INVALID_CURSOR', field: 'after' });
    expect((await window.request('GET', '/products/count?limit=5')).status).toBe(400);
  });

  it('lets a VIEWER read', async () => {
    await server.addUser('grid-viewer', 'VIEWER', 'viewer-password-1');
    // The desktop session is the admin's: a second login of another user replaces it.
    const viewer = new WindowClient(server);
    await viewer.login('grid-viewer', 'viewer-password-1');
    const res = await viewer.request<{ count: number }>('GET', '/products/count');
    expect(res.status).toBe(200);
    expect(res.body.data!.count).toBe(36);
    await window.login();
  });
});

describe('the grid without a workspace and as data changes', () => {
  it('answers 409 without an open workspace', async () => {
    const bare = await startServer({ window: true, setup: 'no-workspace' });
    try {
      const client = new WindowClient(bare);
      await client.login();
      for (const path of ['/products/rows', '/products/count']) {
        const res = await client.request('GET', path);
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('NO_WORKSPACE_OPEN');
      }
    } finally {
      await bare.stop();
    }
  });

  it('sorts by name with the fallback after every kind of text write', async () => {
    const docs = [
      { supplierPid: 'FBK-1', shortTexts: [{ lang: 'eng', value: 'Mitte' }] },
      { supplierPid: 'FBK-2', shortTexts: [] },
      {
        supplierPid: 'FBK-3',
        shortTexts: [
          { lang: 'fra', value: 'Zebra' },
          { lang: 'deu', value: 'Anfang' },
        ],
      },
      {
        supplierPid: 'FBK-4',
        shortTexts: [
          { lang: 'eng', value: 'Mitte' },
          { lang: 'ita', value: 'Mitte' },
        ],
      },
    ];
    const created = await rest<Array<{ id: number; status: number }>>('POST', '/api/product/bulk', docs);
    const made: Model[] = created.map(({ id }, i) => ({
      id,
      supplierPid: docs[i]!.supplierPid,
      texts: {},
      groupId: null,
      masterId: null,
      features: [],
      updatedAt: '',
    }));
    // The model from what REST reads back, so that it holds whatever the writes meant.
    const expectSorted = async (step: string) => {
      for (const m of made) {
        const texts = await rest<Array<{ lang: string; value: string }>>(
          'GET',
          `/api/product/${m.id}/texts/short`,
        );
        m.texts = Object.fromEntries(texts.map((t) => [t.lang, t.value]));
      }
      for (const lang of ['deu', 'eng', 'spa']) {
        for (const dir of ['asc', 'desc'] as const) {
          const rows = await allRows(`q=fbk-&sort=name&dir=${dir}&lang=${lang}`, 2);
          expect(
            rows.map((r) => r.id),
            `${step}: ${lang} ${dir}`,
          ).toEqual(expectOrder(made, 'name', dir === 'desc', lang));
          expect(
            rows.map((r) => r.name),
            `${step}: ${lang} ${dir}`,
          ).toEqual(
            expectOrder(made, 'name', dir === 'desc', lang).map((id) =>
              nameOf(
                made.find((m) => m.id === id)!,
                lang,
              ),
            ),
          );
        }
      }
    };
    await expectSorted('created');
    const [a, b, c, d] = made.map((m) => m.id);
    const writes: Array<[string, string, unknown?]> = [
      ['PUT', `/api/product/${a}/texts/short/deu`, { value: 'Zulu' }], // a new first text
      ['PUT', `/api/product/${a}/texts/short/spa`, { value: 'Alpha' }], // a later one
      ['DELETE', `/api/product/${c}/texts/short/deu`], // the first goes
      ['PUT', `/api/product/${c}/texts/short/fra`, { value: 'Beta' }], // the first changes
      ['DELETE', `/api/product/${d}/texts/short/ita`], // a later one goes
      ['DELETE', `/api/product/${d}/texts/short/eng`], // the last one goes
    ];
    for (const [method, path, body] of writes) {
      await rest(method, path, body);
      await expectSorted(`${method} ${path}`);
    }
    const bulk = await rest<Array<{ status: number }>>('POST', '/api/product/bulk', [
      {
        supplierPid: 'FBK-2',
        shortTexts: [
          { lang: 'nld', value: 'Kaas' },
          { lang: 'dan', value: 'Ost' },
        ],
      },
      { supplierPid: 'FBK-4', shortTexts: [{ lang: 'eng', value: 'Neu' }] },
    ]);
    expect(bulk.every((r) => r.status < 300)).toBe(true);
    await expectSorted('bulk');
    await rest('DELETE', `/api/product/${b}`);
    made.splice(
      made.findIndex((m) => m.id === b),
      1,
    );
    await expectSorted('deleted');
    for (const m of made) await rest('DELETE', `/api/product/${m.id}`);
    expect(await count('q=fbk-')).toBe(0);
  });

  it('finds texts by the search index after updates and deletes', async () => {
    const created = await rest<{ id: number }>('POST', '/api/product', { supplierPid: 'FTS-1' });
    const search = async (q: string) =>
      (await allRows(`q=${encodeURIComponent(q)}`)).map((r) => r.id).includes(created.id);
    expect(await search('fts-1')).toBe(true);
    await rest('PUT', `/api/product/${created.id}/texts/short/deu`, { value: 'Gewindeschneider' });
    expect(await search('windesch')).toBe(true);
    await rest('PUT', `/api/product/${created.id}/texts/short/deu`, { value: 'Kabelbinder' });
    expect(await search('windesch')).toBe(false);
    expect(await search('belbi')).toBe(true);
    await rest('PUT', `/api/product/${created.id}`, { supplierPid: 'QQQ-2' });
    expect(await search('fts-1')).toBe(false);
    expect(await search('qqq-2')).toBe(true);
    await rest('DELETE', `/api/product/${created.id}/texts/short/deu`);
    expect(await search('belbi')).toBe(false);
    await rest('PUT', `/api/product/${created.id}/sheet`, {
      supplierPid: 'QQQ-2',
      shortTexts: [{ lang: 'eng', value: 'Sheetwritten' }],
    }).catch(() => undefined);
    await rest('DELETE', `/api/product/${created.id}`);
    expect(await search('qqq-2')).toBe(false);
    expect(await search('Q')).toBe(false);
  });
});
