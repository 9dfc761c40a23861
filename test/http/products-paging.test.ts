import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  supplierPid: string;
  name: string;
  ean: string | null;
  masterProduct: boolean;
  updatedAt: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });

/** A supplierPid prefix no other test uses, so `q=<prefix>` isolates a test's products. */
const prefix = () => `PG${++seq}X${Math.random().toString(36).slice(2, 8)}`;

async function create(body: Record<string, unknown>): Promise<Product> {
  const res = await call<Product>('POST', '/api/product', body);
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

async function createMany(tag: string, n: number): Promise<Product[]> {
  const out: Product[] = [];
  for (let i = 0; i < n; i++) out.push(await create({ supplierPid: `${tag}-${i}` }));
  return out;
}

function nextLink(res: ApiResponse): string | undefined {
  const header = res.headers.get('link');
  if (!header) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(header);
  expect(match, header).not.toBeNull();
  return match![1];
}

/** Follows the Link headers from `first`, returning the pages; `between` runs before each next page. */
async function pages(
  first: string,
  between?: (page: number, returned: Product[]) => Promise<void>,
): Promise<Product[][]> {
  const result: Product[][] = [];
  let url: string | undefined = first;
  while (url) {
    const res: ApiResponse<Product[]> = await call<Product[]>('GET', url);
    expect(res.status, res.text).toBe(200);
    result.push(res.body.data!);
    url = nextLink(res);
    if (url && between) await between(result.length, result.flat());
    expect(result.length).toBeLessThan(1000);
  }
  return result;
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('paging with limit and the Link header', () => {
  it('without parameters returns the whole list and no Link header', async () => {
    const tag = prefix();
    await createMany(tag, 3);
    const res = await call<Product[]>('GET', '/api/product');
    expect(res.headers.get('link')).toBeNull();
    expect(res.body.data!.filter((p) => p.supplierPid.startsWith(tag))).toHaveLength(3);
  });

  it('pages a search of one or two characters (no search index) as one of three, alike', async () => {
    // Characters no other test's product has: the short searches scan, the long one uses the
    // trigram index (on SQLite each shape is a statement of its own).
    const names = ['a§¶b', 'c¶§d', '§¶§'];
    const created: Awaited<ReturnType<typeof create>>[] = [];
    for (const name of names) created.push(await create({ supplierPid: `${prefix()}`, name }));
    const ids = (...i: number[]) => i.map((k) => created[k]!.id);
    for (const [q, expected] of [
      ['§', ids(0, 1, 2)],
      ['§¶', ids(0, 2)],
      ['§¶§', ids(2)],
    ] as const) {
      const result = await pages(`/api/product?limit=1&q=${encodeURIComponent(q)}`);
      expect(
        result.flat().map((p) => p.id),
        q,
      ).toEqual(expected);
      expect(
        result.map((p) => p.length),
        q,
      ).toEqual(expected.map(() => 1));
    }
  });

  it('finds a short search beyond the first 200 characters of a long name, ignoring ASCII case', async () => {
    // PostgreSQL answers terms under three characters from the sort's name keys (a name's first
    // 200 characters) and reads the rest of a longer name separately (migration 0018).
    const far = await create({ supplierPid: prefix(), name: `${'n'.repeat(230)} ¤Q` });
    const near = await create({ supplierPid: prefix(), name: '¤q at the start' });
    const neither = await create({ supplierPid: prefix(), name: `${'n'.repeat(230)} ¤ Q` });
    for (const q of ['¤q', '¤Q']) {
      const found = (await pages(`/api/product?limit=1&q=${encodeURIComponent(q)}`)).flat().map((p) => p.id);
      expect(found, q).toEqual([far.id, near.id]);
      expect(found, q).not.toContain(neither.id);
    }
  });

  it('returns every product exactly once across pages, in id order', async () => {
    const tag = prefix();
    const created = await createMany(tag, 23);
    const result = await pages(`/api/product?limit=5&q=${tag}`);
    expect(result.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    expect(result.flat().map((p) => p.id)).toEqual(created.map((p) => p.id));
  });

  it('pages the whole list too, and agrees with the unpaged answer', async () => {
    await createMany(prefix(), 12);
    const full = (await call<Product[]>('GET', '/api/product?all=true')).body.data!;
    const paged = (await pages('/api/product?all=true&limit=7')).flat();
    expect(paged).toEqual(full);
  });

  it('keeps the other query parameters in the next link', async () => {
    const tag = prefix();
    const main = await create({ supplierPid: `${tag}-main`, name: 'Haupt' });
    for (let i = 0; i < 3; i++) {
      await call('POST', `/api/product/${main.id}/variants`, {
        supplierPid: `${tag}-v${i}`,
        name: `Variante ${i}`,
      });
    }
    await call('PUT', `/api/product/${main.id}/texts/short/eng`, { value: 'Main' });
    const first = await call<Product[]>('GET', `/api/product?all=true&lang=eng&q=${tag}&limit=2`);
    const link = nextLink(first)!;
    const params = new URL(link, 'http://x').searchParams;
    expect(new URL(link, 'http://x').pathname).toBe('/api/product');
    expect(params.get('all')).toBe('true');
    expect(params.get('lang')).toBe('eng');
    expect(params.get('q')).toBe(tag);
    expect(params.get('limit')).toBe('2');
    expect(params.get('after')).toBeTruthy();
    expect(first.body.data![0]!.name).toBe('Main');
    const all = [first.body.data!, ...(await pages(link))].flat();
    expect(all).toHaveLength(4);
    expect(all.filter((p) => !p.masterProduct)).toHaveLength(3);
  });

  it('keeps a q with spaces and special characters intact across pages', async () => {
    const tag = prefix();
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(await create({ supplierPid: `${tag}-${i}`, name: `Akku & Bohrer ${tag} #${i}` }));
    const result = await pages(`/api/product?limit=2&q=${encodeURIComponent(`akku & bohrer ${tag}`)}`);
    expect(result.flat().map((p) => p.id)).toEqual(created.map((p) => p.id));
  });

  it('has no Link header on the last page, also when it is exactly full', async () => {
    const tag = prefix();
    await createMany(tag, 4);
    const full = await call('GET', `/api/product?limit=4&q=${tag}`);
    expect(full.body.data).toHaveLength(4);
    expect(full.headers.get('link')).toBeNull();
    const one = await call('GET', `/api/product?limit=1000&q=${tag}`);
    expect(one.headers.get('link')).toBeNull();
    const empty = await call('GET', `/api/product?limit=10&q=${tag}-none`);
    expect(empty.body).toEqual({ success: true, data: [] });
    expect(empty.headers.get('link')).toBeNull();
  });

  it('returns every product exactly once while products are created and deleted between pages', async () => {
    const tag = prefix();
    const initial = await createMany(tag, 30);
    const deletedUnseen: number[] = [];
    const deletedSeen: number[] = [];
    const addedLater: number[] = [];
    const result = await pages(`/api/product?limit=4&q=${tag}`, async (page, returned) => {
      // delete one product already returned and one not yet returned, create two new ones
      const maxReturned = returned[returned.length - 1]!.id;
      const seen = returned[returned.length - 2]!;
      const unseen = initial.find((p) => p.id > maxReturned + page && !deletedUnseen.includes(p.id));
      expect((await call('DELETE', `/api/product/${seen.id}`)).status).toBe(200);
      deletedSeen.push(seen.id);
      if (unseen) {
        expect((await call('DELETE', `/api/product/${unseen.id}`)).status).toBe(200);
        deletedUnseen.push(unseen.id);
      }
      if (addedLater.length < 6) {
        addedLater.push((await create({ supplierPid: `${tag}-late-${page}-a` })).id);
        addedLater.push((await create({ supplierPid: `${tag}-late-${page}-b` })).id);
      }
    });
    const ids = result.flat().map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const survivors = initial.map((p) => p.id).filter((id) => !deletedUnseen.includes(id));
    // every product that existed throughout, or until it had been returned, appears exactly once
    for (const id of survivors)
      expect(
        ids.filter((x) => x === id),
        `product ${id}`,
      ).toHaveLength(1);
    for (const id of deletedUnseen) expect(ids).not.toContain(id);
    // products created during the walk have higher ids and appear on later pages
    for (const id of addedLater) expect(ids.filter((x) => x === id)).toHaveLength(1);
    expect(deletedUnseen.length).toBeGreaterThan(2);
    expect(deletedSeen.length).toBeGreaterThan(2);
  });

  it('refuses bad limits and cursors with 400', async () => {
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=-1',
      'limit=abc',
      'limit=1.5',
      'after=xyz',
      'limit=5&after=!!',
      'limit=5&after=',
    ]) {
      const res = await call('GET', `/api/product?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect((await call('GET', '/api/product?limit=5&after=nonsense')).body.code).toBe('INVALID_CURSOR');
    expect((await call('GET', '/api/product?limit=1000')).status).toBe(200);
  });

  it('accepts a cursor without limit: everything after it', async () => {
    const tag = prefix();
    const created = await createMany(tag, 5);
    const first = await call<Product[]>('GET', `/api/product?limit=2&q=${tag}`);
    const after = new URL(nextLink(first)!, 'http://x').searchParams.get('after')!;
    const rest = await call<Product[]>('GET', `/api/product?q=${tag}&after=${after}`);
    expect(rest.body.data!.map((p) => p.id)).toEqual(created.slice(2).map((p) => p.id));
    expect(rest.headers.get('link')).toBeNull();
  });
});

describe('filters', () => {
  it('supplierPid and ean match exactly', async () => {
    const tag = prefix();
    const a = await create({ supplierPid: `${tag}-a`, ean: `${tag}-4006381` });
    await create({ supplierPid: `${tag}-ab`, ean: `${tag}-40063811` });
    const byPid = await call<Product[]>('GET', `/api/product?supplierPid=${tag}-a`);
    expect(byPid.body.data).toEqual([a]);
    const byEan = await call<Product[]>('GET', `/api/product?ean=${tag}-4006381`);
    expect(byEan.body.data).toEqual([a]);
    expect((await call('GET', `/api/product?supplierPid=${tag}`)).body.data).toEqual([]);
  });

  it('q searches supplierPid and the short texts of every language, case-insensitively', async () => {
    const tag = prefix();
    const byPid = await create({ supplierPid: `${tag}-Hammer` });
    const byDeu = await create({ supplierPid: `${tag}-1`, name: `Schlagbohrmaschine ${tag}` });
    const byEng = await create({ supplierPid: `${tag}-2` });
    await call('PUT', `/api/product/${byEng.id}/texts/short/eng`, {
      value: `Impact drill ${tag.toLowerCase()}`,
    });
    const longOnly = await create({ supplierPid: `${tag.split('X')[0]}LONG${seq}` });
    await call('PUT', `/api/product/${longOnly.id}/texts/long/deu`, { value: tag });

    const res = await call<Product[]>('GET', `/api/product?q=${tag.toLowerCase()}`);
    expect(res.body.data!.map((p) => p.id)).toEqual([byPid.id, byDeu.id, byEng.id]);
    expect(
      (await call<Product[]>('GET', `/api/product?q=HAMMER&supplierPid=${tag}-Hammer`)).body.data,
    ).toEqual([{ ...byPid }]);
    const drill = await call<Product[]>('GET', `/api/product?q=${encodeURIComponent(`DRILL ${tag}`)}`);
    expect(drill.body.data!.map((p) => p.id)).toEqual([byEng.id]);
    // q names short texts only: a long text does not match
    expect(res.body.data!.map((p) => p.id)).not.toContain(longOnly.id);
  });

  it('q treats % and _ literally', async () => {
    const tag = prefix();
    const pct = await create({ supplierPid: `${tag}-50%` });
    await create({ supplierPid: `${tag}-50x` });
    const under = await create({ supplierPid: `${tag}-a_b` });
    await create({ supplierPid: `${tag}-axb` });
    expect(
      (await call<Product[]>('GET', `/api/product?q=${encodeURIComponent(`${tag}-50%`)}`)).body.data,
    ).toEqual([pct]);
    expect(
      (await call<Product[]>('GET', `/api/product?q=${encodeURIComponent(`${tag}-a_b`)}`)).body.data,
    ).toEqual([under]);
  });

  it('filters apply to main products by default and to variants with all=true', async () => {
    const tag = prefix();
    const main = await create({ supplierPid: `${tag}-main` });
    const variant = (
      await call<Product>('POST', `/api/product/${main.id}/variants`, {
        supplierPid: `${tag}-var`,
        ean: `${tag}E`,
      })
    ).body.data!;
    expect((await call('GET', `/api/product?ean=${tag}E`)).body.data).toEqual([]);
    expect((await call('GET', `/api/product?ean=${tag}E&all=true`)).body.data).toEqual([variant]);
    expect((await call<Product[]>('GET', `/api/product?q=${tag}`)).body.data!.map((p) => p.id)).toEqual([
      main.id,
    ]);
  });

  it('refuses filter values that are too long, and unknown parameters', async () => {
    expect((await call('GET', `/api/product?q=${'x'.repeat(1001)}`)).status).toBe(400);
    expect((await call('GET', '/api/product?sort=name')).status).toBe(400);
  });
});

describe('updatedSince (delta sync)', () => {
  it('returns the products changed at or after the instant, in id order', async () => {
    const tag = prefix();
    server.clock.advance(3_600_000);
    const t1 = server.clock.now().toISOString();
    const a = await create({ supplierPid: `${tag}-a` });
    server.clock.advance(1000);
    const t2 = server.clock.now().toISOString();
    const b = await create({ supplierPid: `${tag}-b` });
    server.clock.advance(1000);
    const t3 = server.clock.now().toISOString();

    const since = async (instant: string) =>
      (
        await call<Product[]>('GET', `/api/product?q=${tag}&updatedSince=${encodeURIComponent(instant)}`)
      ).body.data!.map((p) => p.id);
    expect(await since(t1)).toEqual([a.id, b.id]);
    expect(await since(t2)).toEqual([b.id]);
    expect(await since(t3)).toEqual([]);

    // a change to a's text makes it part of the next delta
    await call('PUT', `/api/product/${a.id}/texts/long/eng`, { value: 'changed' });
    expect(await since(t3)).toEqual([a.id]);
    // a change to a variant brings its main product along
    const v = (await call<Product>('POST', `/api/product/${b.id}/variants`, { supplierPid: `${tag}-bv` }))
      .body.data!;
    server.clock.advance(1000);
    const t4 = server.clock.now().toISOString();
    await call('PUT', `/api/product/${v.id}/features/F`, { values: [{ lang: 'deu', value: '1' }] });
    expect(await since(t4)).toEqual([b.id]);
    expect(
      (await call<Product[]>('GET', `/api/product?all=true&q=${tag}&updatedSince=${t4}`)).body.data!.map(
        (p) => p.id,
      ),
    ).toEqual([b.id, v.id]);
  });

  it('accepts offsets and dates, and refuses what is not ISO 8601', async () => {
    const tag = prefix();
    server.clock.advance(3_600_000);
    const p = await create({ supplierPid: `${tag}-a` });
    const at = new Date(p.updatedAt);
    const plus2 = new Date(at.getTime() + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const ids = async (q: string) =>
      (
        await call<Product[]>('GET', `/api/product?q=${tag}&updatedSince=${encodeURIComponent(q)}`)
      ).body.data!.map((x) => x.id);
    expect(await ids(plus2)).toEqual([p.id]);
    const oneMsLater = new Date(at.getTime() + 1).toISOString().replace('Z', '+00:00');
    expect(await ids(oneMsLater)).toEqual([]);
    expect(await ids(p.updatedAt.slice(0, 10))).toEqual([p.id]);
    for (const bad of ['yesterday', '2026-01-15T10:00:00', '2026-02-30', '1700000000']) {
      const res = await call('GET', `/api/product?updatedSince=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toContain('updatedSince');
    }
  });

  it('pages a delta with limit', async () => {
    const tag = prefix();
    server.clock.advance(3_600_000);
    const since = server.clock.now().toISOString();
    const created = await createMany(tag, 7);
    const result = await pages(`/api/product?limit=3&q=${tag}&updatedSince=${encodeURIComponent(since)}`);
    expect(result.flat().map((p) => p.id)).toEqual(created.map((p) => p.id));
  });
});
