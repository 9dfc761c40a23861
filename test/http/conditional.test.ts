import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TEST_BACKEND } from '../helpers/backend.js';
import { connectStdio, ok as toolOk } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

/**
 * Conditional requests (issue 12, item 2): ETags on every catalogue read, 304 for a current
 * If-None-Match, 412 for a stale If-Match on PUT and DELETE of a product, and the workspace's
 * change counter in GET /api/workspace. The test clock never moves here: every change happens
 * within the same millisecond, so nothing can rest on updatedAt.
 */

interface Product {
  id: number;
  supplierPid: string;
  name: string;
}
interface Workspace {
  name: string;
  rootpath: string;
  active: boolean;
  changeCounter: number | null;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = (label = 'E') => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<ApiResponse<T>> => server.request<T>(method, path, { token, body, headers });

async function create(body: Record<string, unknown> = {}): Promise<Product> {
  const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}

async function createGroup(name = 'Gruppe'): Promise<number> {
  const res = await call<{ id: number }>('POST', '/api/group', { name });
  expect(res.status, res.text).toBe(201);
  return res.body.data!.id;
}

/** GETs `path`, which must answer 200 with an ETag; returns the ETag. */
async function etagOf(path: string): Promise<string> {
  const res = await call('GET', path);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  const etag = res.headers.get('etag');
  expect(etag, path).toMatch(/^W\/"[^"]+"$/);
  return etag!;
}

async function etagsOf(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(etagOf));
}

async function counter(): Promise<number> {
  const res = await call<Workspace[]>('GET', '/api/workspace');
  expect(res.status, res.text).toBe(200);
  return res.body.data!.find((w) => w.active)!.changeCounter!;
}

/** A product with a variant, texts, a feature and a group, and the reads of it that carry an ETag. */
async function catalogue() {
  const groupId = await createGroup();
  const main = await create({ name: 'Bohrer' });
  const variant = await create({ masterProductId: main.id, name: 'Bohrer 6 mm' });
  expect((await call('PUT', `/api/product/${main.id}/texts/long/deu`, { value: '<p>lang</p>' })).status).toBe(
    200,
  );
  const feature = `/api/product/${main.id}/features/F-${seq}`;
  expect((await call('PUT', feature, { funit: 'mm', values: [{ lang: 'deu', value: '6' }] })).status).toBe(
    200,
  );
  expect((await call('POST', `/api/group/${groupId}/products`, { productIds: [main.id] })).status).toBe(200);
  const p = `/api/product/${main.id}`;
  const reads = [
    '/api/product',
    '/api/product?all=true',
    '/api/product?limit=1',
    `/api/product/deleted?since=${encodeURIComponent(server.clock.now().toISOString())}`,
    p,
    `${p}?lang=eng`,
    `${p}/variants`,
    `${p}/texts/short`,
    `${p}/texts/short/deu`,
    `${p}/texts/long`,
    `${p}/texts/long/deu`,
    `${p}/features`,
    feature,
    `${feature}/deu`,
    '/api/group',
    '/api/group/tree',
    `/api/group/${groupId}`,
    `/api/group/${groupId}/products`,
  ];
  return { main, variant, groupId, feature, reads };
}

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('ETag and If-None-Match', () => {
  it('every read of a product, its texts, features and variants, of groups, the tree and every list carries an ETag', async () => {
    const { reads } = await catalogue();
    const etags = await etagsOf(reads);
    // Every representation has its own: none is mistaken for another's.
    expect(new Set(etags).size).toBe(reads.length);
  });

  it('answers 304 with no body for a current ETag, also among others, for * and for the strong spelling', async () => {
    const { reads } = await catalogue();
    for (const path of reads) {
      const etag = await etagOf(path);
      const opaque = etag.slice(2);
      for (const condition of [etag, `"other", ${etag}`, `W/"a",W/"b" , ${etag}`, '*', opaque]) {
        const res = await call('GET', path, undefined, { 'if-none-match': condition });
        expect(res.status, `${path} with ${condition}`).toBe(304);
        expect(res.text).toBe('');
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('content-type')).toBeNull();
      }
      const other = await call('GET', path, undefined, { 'if-none-match': 'W/"not-this-one"' });
      expect(other.status).toBe(200);
      expect(other.headers.get('etag')).toBe(etag);
    }
  });

  it('answers HEAD like GET', async () => {
    const { main } = await catalogue();
    for (const path of [`/api/product/${main.id}`, '/api/product', '/api/group/tree']) {
      const etag = await etagOf(path);
      const head = await call('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(etag);
      expect((await call('HEAD', path, undefined, { 'if-none-match': etag })).status).toBe(304);
    }
  });

  it('answers errors without an ETag, and never 304 for what does not exist', async () => {
    const { main } = await catalogue();
    const product = await etagOf(`/api/product/${main.id}`);
    const texts = await etagOf(`/api/product/${main.id}/texts/short`);
    for (const [path, condition] of [
      ['/api/product/999999', product],
      ['/api/product/999999', '*'],
      ['/api/product/999999/texts/short', texts],
      ['/api/product/999999/texts/short', '*'],
      [`/api/product/${main.id}/texts/short/fra`, '*'],
      ['/api/group/999999', '*'],
    ] as const) {
      const res = await call('GET', path, undefined, { 'if-none-match': condition });
      expect(res.status, `${path} with ${condition}`).toBe(404);
      expect(res.headers.get('etag')).toBeNull();
    }
    const bad = await call('GET', `/api/product/${main.id}?lang=xx`, undefined, { 'if-none-match': '*' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('etag')).toBeNull();
  });

  it('ignores a malformed If-None-Match: the read is answered in full', async () => {
    const { main } = await catalogue();
    for (const path of [`/api/product/${main.id}`, '/api/group/tree']) {
      const etag = await etagOf(path);
      for (const condition of [etag.slice(3, -1), `${etag} garbage`, '', 'W/']) {
        const res = await call('GET', path, undefined, { 'if-none-match': condition });
        expect(res.status, condition).toBe(200);
        expect(res.headers.get('etag')).toBe(etag);
      }
    }
  });

  it("names the language of the product's name: each ?lang= is its own representation", async () => {
    const p = await create({ name: 'Schraube' });
    await call('PUT', `/api/product/${p.id}/texts/short/eng`, { value: 'Screw' });
    const deu = await etagOf(`/api/product/${p.id}`);
    const eng = await etagOf(`/api/product/${p.id}?lang=eng`);
    expect(deu).toMatch(/-deu"$/);
    expect(eng).toMatch(/-eng"$/);
    expect(await etagOf(`/api/product/${p.id}?lang=ger`)).toBe(deu);
    const res = await call('GET', `/api/product/${p.id}?lang=eng`, undefined, { 'if-none-match': deu });
    expect(res.status).toBe(200);
    expect((res.body.data as Product).name).toBe('Screw');
  });
});

describe('an ETag changes with every change and never without one', () => {
  it('changes with every kind of change of a product, within one millisecond, and the counter rises by one each time', async () => {
    const { main, variant, groupId, feature, reads: all } = await catalogue();
    // Reads of what the changes below delete would answer 404.
    const reads = all.filter((r) => !r.startsWith(feature) && !r.endsWith('/texts/long/deu'));
    const p = `/api/product/${main.id}`;
    const otherGroup = await createGroup('Andere');
    const doomedGroup = await createGroup('Weg');
    let newVariant = 0;
    const changes: Array<[string, () => Promise<ApiResponse>]> = [
      ['update the product', () => call('PUT', p, { ean: '4006381333931' })],
      ['rename it', () => call('PUT', p, { name: 'Bohrer neu' })],
      ['set a short text', () => call('PUT', `${p}/texts/short/eng`, { value: 'Drill' })],
      ['delete a short text', () => call('DELETE', `${p}/texts/short/eng`)],
      ['set a long text', () => call('PUT', `${p}/texts/long/deu`, { value: 'anders' })],
      ['delete a long text', () => call('DELETE', `${p}/texts/long/deu`)],
      ['set a feature', () => call('PUT', feature, { values: [{ lang: 'eng', value: '6' }] })],
      ['set a feature value', () => call('PUT', `${feature}/fra`, { value: '6' })],
      ['delete a feature value', () => call('DELETE', `${feature}/fra`)],
      ['delete a feature', () => call('DELETE', feature)],
      [
        'move it to another group',
        () => call('POST', `/api/group/${otherGroup}/products`, { productIds: [main.id] }),
      ],
      ['take it out of its group', () => call('DELETE', `/api/group/${otherGroup}/products/${main.id}`)],
      [
        'put it into a group',
        () => call('POST', `/api/group/${doomedGroup}/products`, { productIds: [main.id] }),
      ],
      ['delete that group', () => call('DELETE', `/api/group/${doomedGroup}`)],
      ['group a variant', () => call('POST', `/api/group/${groupId}/products`, { productIds: [variant.id] })],
      ['update a variant', () => call('PUT', `/api/product/${variant.id}`, { ean: '1' })],
      [
        'set a text of a variant',
        () => call('PUT', `/api/product/${variant.id}/texts/long/deu`, { value: 'v' }),
      ],
      [
        'create a variant',
        async () => {
          const res = await call<Product>('POST', `${p}/variants`, { supplierPid: pid('V') });
          newVariant = res.body.data?.id ?? 0;
          return res;
        },
      ],
      ['delete a variant', () => call('DELETE', `/api/product/${newVariant}`)],
    ];
    let etags = await etagsOf(reads);
    let count = await counter();
    const at = server.clock.now().toISOString();
    for (const [what, change] of changes) {
      const res = await change();
      expect(res.status, `${what}: ${res.text}`).toBeLessThan(300);
      const next = await etagsOf(reads);
      // The product's own ETag and every list's: nothing may be served from an old copy.
      next.forEach((etag, i) => expect(etag, `${reads[i]} after: ${what}`).not.toBe(etags[i]));
      expect(await counter(), what).toBe(count + 1);
      etags = next;
      count += 1;
    }
    expect(server.clock.now().toISOString()).toBe(at);
  });

  it('stays the same after reads, after writes that change nothing and after failed writes', async () => {
    const { main, variant, groupId, reads } = await catalogue();
    const taken = await create();
    const child = (await call<{ id: number }>('POST', '/api/group', { name: 'Kind', parentId: groupId })).body
      .data!.id;
    const p = `/api/product/${main.id}`;
    const attempts: Array<[string, () => Promise<ApiResponse>, number]> = [
      ['an update with no fields', () => call('PUT', p, {}), 200],
      ['an update with only a language', () => call('PUT', p, { language: 'eng' }), 200],
      [
        'assigning a product already in the group',
        () => call('POST', `/api/group/${groupId}/products`, { productIds: [main.id] }),
        200,
      ],
      [
        'moving a group to the parent it has',
        () => call('POST', `/api/group/${child}/move`, { parentId: groupId }),
        200,
      ],
      ['a taken supplierPid', () => call('PUT', p, { supplierPid: taken.supplierPid }), 409],
      ['a bad body', () => call('PUT', p, { ean: 5 }), 400],
      ['masterProductId on update', () => call('PUT', p, { masterProductId: taken.id }), 400],
      ['deleting a missing text', () => call('DELETE', `${p}/texts/short/fra`), 404],
      ['deleting a missing feature', () => call('DELETE', `${p}/features/NONE`), 404],
      [
        'a group under its own child',
        () => call('POST', `/api/group/${groupId}/move`, { parentId: child }),
        400,
      ],
      [
        'assigning an unknown product',
        () => call('POST', `/api/group/${groupId}/products`, { productIds: [main.id, 999999] }),
        404,
      ],
      [
        'a variant of a variant',
        () => call('POST', `/api/product/${variant.id}/variants`, { supplierPid: pid() }),
        400,
      ],
    ];
    const etags = await etagsOf(reads);
    const count = await counter();
    for (const [what, attempt, status] of attempts) {
      const res = await attempt();
      expect(res.status, `${what}: ${res.text}`).toBe(status);
      expect(await etagsOf(reads), what).toEqual(etags);
      expect(await counter(), what).toBe(count);
    }
  });

  it('property: after any sequence of changes and non-changes, the ETag changed exactly when the product did', async () => {
    const product = await create({ name: 'Eigenschaft' });
    const taken = await create();
    const p = `/api/product/${product.id}`;
    /** A request, the status it gets, and whether it changes the product. */
    type Step = { label: string; status: number; changes: boolean; run: () => Promise<ApiResponse> };
    const nothing = (label: string, status: number, run: () => Promise<ApiResponse>): Step => ({
      label,
      status,
      changes: false,
      run,
    });
    const step = fc.oneof(
      fc.constantFrom<Step>(
        nothing('read', 200, () => call('GET', p)),
        nothing('empty update', 200, () => call('PUT', p, {})),
        nothing('taken supplierPid', 409, () => call('PUT', p, { supplierPid: taken.supplierPid })),
        nothing('bad language', 400, () => call('PUT', `${p}/texts/short/xx`, { value: 'x' })),
        nothing('missing feature', 404, () => call('DELETE', `${p}/features/NONE`)),
      ),
      fc.stringMatching(/^[a-zA-Z0-9 ]{0,8}$/).map<Step>((value) => ({
        label: `text ${JSON.stringify(value)}`,
        status: 200,
        changes: true,
        run: () => call('PUT', `${p}/texts/long/eng`, { value }),
      })),
      fc.stringMatching(/^[a-z]{1,8}$/).map<Step>((name) => ({
        label: `name ${JSON.stringify(name)}`,
        status: 200,
        changes: true,
        run: () => call('PUT', p, { name }),
      })),
      fc.integer({ min: 0, max: 999 }).map<Step>((n) => ({
        label: `feature value ${n}`,
        status: 200,
        changes: true,
        run: () => call('PUT', `${p}/features/P/deu`, { value: String(n) }),
      })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          const before = await etagOf(p);
          const count = await counter();
          const res = await s.run();
          expect(res.status, `${s.label}: ${res.text}`).toBe(s.status);
          const after = await etagOf(p);
          expect(after !== before, s.label).toBe(s.changes);
          expect(await counter(), s.label).toBe(count + (s.changes ? 1 : 0));
        }
      }),
      { numRuns: 12 },
    );
  });
});

describe('If-Match on PUT and DELETE of a product', () => {
  it('changes a product only while it is at the version named, else 412 and nothing changes', async () => {
    const product = await create({ name: 'Alt' });
    const p = `/api/product/${product.id}`;
    const first = await etagOf(p);
    const updated = await call<Product>('PUT', p, { name: 'Neu' }, { 'if-match': first });
    expect(updated.status, updated.text).toBe(200);
    const second = updated.headers.get('etag')!;
    expect(second).not.toBe(first);
    expect(await etagOf(p)).toBe(second);

    const count = await counter();
    const stale = await call('PUT', p, { name: 'Verloren' }, { 'if-match': first });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({
      success: false,
      error: `Product ${product.id} was changed since the version this change is based on: read it again and reapply the change`,
      code: 'PRECONDITION_FAILED',
    });
    expect(stale.headers.get('etag')).toBeNull();
    expect((await call<Product>('GET', p)).body.data!.name).toBe('Neu');
    expect(await counter()).toBe(count);

    // The ETag of another language names the same version; strong spelling, lists and * are read too.
    const eng = await etagOf(`${p}?lang=eng`);
    expect((await call('PUT', p, { ean: '1' }, { 'if-match': eng })).status).toBe(200);
    const third = await etagOf(p);
    expect((await call('PUT', p, { ean: '2' }, { 'if-match': `W/"x", ${third.slice(2)}` })).status).toBe(200);
    expect((await call('PUT', p, { ean: '3' }, { 'if-match': '*' })).status).toBe(200);
    // Tags of lists or of other products name no version of this one.
    const list = await etagOf('/api/product');
    const other = await etagOf(`/api/product/${(await create()).id}`);
    for (const tag of [list, other, second])
      expect((await call('PUT', p, { ean: '4' }, { 'if-match': tag })).status).toBe(412);

    expect((await call('DELETE', p, undefined, { 'if-match': second })).status).toBe(412);
    expect((await call('GET', p)).status).toBe(200);
    const current = await etagOf(p);
    expect((await call('DELETE', p, undefined, { 'if-match': current })).status).toBe(200);
    expect((await call('GET', p)).status).toBe(404);
  });

  it('checks the request and the product first: 400 for a bad body or a malformed If-Match, 404 for an unknown product', async () => {
    const product = await create();
    const p = `/api/product/${product.id}`;
    const etag = await etagOf(p);
    expect((await call('PUT', p, { ean: 5 }, { 'if-match': 'W/"stale"' })).status).toBe(400);
    expect((await call('PUT', '/api/product/999999', { ean: '5' }, { 'if-match': etag })).status).toBe(404);
    expect((await call('DELETE', '/api/product/999999', undefined, { 'if-match': '*' })).status).toBe(404);
    for (const malformed of ['stale', 'W/stale', '"a" "b"', '"unterminated', '**']) {
      for (const method of ['PUT', 'DELETE']) {
        const res = await call(method, p, method === 'PUT' ? { ean: '5' } : undefined, {
          'if-match': malformed,
        });
        expect(res.status, `${method} ${malformed}`).toBe(400);
        expect(res.body.code).toBe('INVALID_PRECONDITION');
      }
    }
    expect(await etagOf(p)).toBe(etag);
  });

  it('answers a created product and variant with the ETag GET gives them, usable at once as If-Match', async () => {
    const created = await call<Product>('POST', '/api/product', {
      supplierPid: pid(),
      name: 'Kiste',
      language: 'eng',
    });
    expect(created.status, created.text).toBe(201);
    const p = `/api/product/${created.body.data!.id}`;
    const etag = created.headers.get('etag');
    // The representation answered: the name in the language it was given in.
    expect(etag).toBe(await etagOf(`${p}?lang=eng`));
    const variant = await call<Product>('POST', `${p}/variants`, { supplierPid: pid(), name: 'klein' });
    expect(variant.status, variant.text).toBe(201);
    const v = `/api/product/${variant.body.data!.id}`;
    expect(variant.headers.get('etag')).toBe(await etagOf(v));
    // Creating the variant changed its main product: the 201's tag of it is stale now.
    expect((await call('PUT', p, { ean: '1' }, { 'if-match': etag! })).status).toBe(412);
    expect((await call('PUT', v, { ean: '1' }, { 'if-match': variant.headers.get('etag')! })).status).toBe(
      200,
    );
  });

  it('lets exactly one of two editors with the same ETag win', async () => {
    for (let round = 0; round < 5; round++) {
      const product = await create();
      const p = `/api/product/${product.id}`;
      const etag = await etagOf(p);
      const answers = await Promise.all(
        ['A', 'B'].map((editor) => call('PUT', p, { name: `von ${editor}` }, { 'if-match': etag })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
      const winner = answers.find((a) => a.status === 200)!;
      expect((await call<Product>('GET', p)).body.data!.name).toBe((winner.body.data as Product).name);
      const deletes = await Promise.all(
        [0, 1].map(async () => call('DELETE', p, undefined, { 'if-match': winner.headers.get('etag')! })),
      );
      expect(deletes.map((a) => a.status).sort()).toEqual([200, 404]);
    }
  });
});

describe('the change counter in GET /api/workspace', () => {
  it('rises with a write and not with a read; other workspaces have none', async () => {
    const before = await counter();
    await etagOf('/api/product');
    await etagOf('/api/group/tree');
    expect(await counter()).toBe(before);
    await create();
    expect(await counter()).toBe(before + 1);
    const res = await call<Workspace[]>('GET', '/api/workspace');
    for (const ws of res.body.data!) expect(ws.changeCounter === null).toBe(!ws.active);
  });

  it('sees the writes of another process on the same data folder (pim mcp), in the very next request', async () => {
    const agent = await connectStdio(server.dataDir, ['--user', 'admin'], { PIM_PASSWORD: ADMIN_PASSWORD });
    try {
      const list = await etagOf('/api/product');
      const before = await counter();
      await toolOk(agent, 'create_product', { supplierPid: pid('AGENT'), name: 'vom Agenten' });
      expect(await counter()).toBe(before + 1);
      const res = await call('GET', '/api/product', undefined, { 'if-none-match': list });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).not.toBe(list);
    } finally {
      await agent.close();
    }
  });
});

describe.runIf(TEST_BACKEND === 'sqlite')('reads while another process writes the SQLite file', () => {
  it('never wait for its write lock: a read transaction (the tree) asks for none', async () => {
    const workspaces = (await call<Workspace[]>('GET', '/api/workspace')).body.data!;
    const folder = workspaces.find((w) => w.active)!.rootpath;
    const count = await counter();
    const other = new Database(join(folder, 'workspace.sqlite'));
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = Date.now();
      for (const path of ['/api/group/tree', '/api/product', '/api/group']) await etagOf(path);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await counter()).toBe(count);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('the API description', () => {
  it('documents If-None-Match, ETag and 304 on every catalogue read, If-Match and 412 on PUT and DELETE of a product', async () => {
    type Operation = {
      parameters?: { in: string; name: string }[];
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    const doc = (await call('GET', '/api/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    const headerParameters = (op: Operation) =>
      (op.parameters ?? []).filter((x) => x.in === 'header').map((x) => x.name);
    const reads = Object.entries(doc.paths).filter(
      ([path, ops]) => /^\/api\/(product|group)/.test(path) && ops.get,
    );
    expect(reads.length).toBe(16);
    for (const [path, ops] of reads) {
      const op = ops.get!;
      expect(headerParameters(op), path).toEqual(['If-None-Match']);
      expect(Object.keys(op.responses['200']!.headers ?? {}), path).toContain('ETag');
      expect(Object.keys(op.responses['304']!.headers ?? {}), path).toEqual(['ETag']);
    }
    for (const [path, method] of [
      ['/api/product/{id}', 'put'],
      ['/api/product/{id}', 'delete'],
      ['/api/product/{id}/sheet', 'put'],
    ] as const) {
      const op = doc.paths[path]![method]!;
      expect(headerParameters(op), `${method} ${path}`).toEqual(['If-Match']);
      expect(op.responses['412'], `${method} ${path}`).toBeDefined();
    }
    for (const path of ['/api/product/{id}', '/api/product/{id}/sheet']) {
      expect(Object.keys(doc.paths[path]!.put!.responses['200']!.headers ?? {}), path).toEqual(['ETag']);
    }
    for (const path of ['/api/product', '/api/product/{id}/variants']) {
      expect(Object.keys(doc.paths[path]!.post!.responses['201']!.headers ?? {}), path).toEqual([
        'Location',
        'ETag',
      ]);
    }
  });
});
