import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectHttp, ok } from '../helpers/mcp.js';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Sheet {
  product: { id: number; supplierPid: string; name: string; masterProduct: boolean; variantCount: number };
  shortTexts: { lang: string; value: string }[];
  longTexts: { lang: string; value: string }[];
  features: { ftidref: string; funit: string | null; values: { lang: string; value: string }[] }[];
  group: { id: number; groupId: string; name: string } | null;
  variants: { id: number; supplierPid: string; name: string }[];
}
interface Page {
  items: { id: number; supplierPid: string; name: string }[];
  nextCursor: string | null;
}

/**
 * One application for the file: each test makes its own products under supplierPids no other test
 * uses and reads only those; paging through the whole catalogue and having no workspace take
 * applications of their own.
 */
const shared = lazyServerPerFile();

let server: TestServer;
let token: string;
let client: Client;

beforeAll(async () => {
  server = await shared();
  token = await server.login();
  client = await connectHttp(server.baseUrl, token);
});
afterAll(async () => {
  await client.close();
});

const rest = <T>(method: string, path: string, body?: unknown) =>
  server.request<T>(method, path, { token, body });

describe('create_product and get_product', () => {
  it('creates a product with texts, features and group in one call, visible through REST at once', async () => {
    const group = (await rest<{ id: number; groupId: string }>('POST', '/api/group', { name: 'Bohrer' })).body
      .data!;
    const sheet = await ok<Sheet>(client, 'create_product', {
      supplierPid: 'DRILL-1',
      name: 'Bohrschrauber',
      ean: '4006381333115',
      shortTexts: [{ lang: 'eng', value: 'Drill driver' }],
      longTexts: [{ lang: 'deu', value: '<p>Mit <b>2 Gängen</b></p>\n' }],
      features: [{ ftidref: '0173-1#02-AAF040#004', funit: 'mm', values: [{ lang: 'deu', value: '13' }] }],
      groupId: group.id,
    });
    expect(sheet.product).toMatchObject({
      supplierPid: 'DRILL-1',
      name: 'Bohrschrauber',
      masterProduct: true,
    });
    expect(sheet.shortTexts).toEqual([
      { lang: 'deu', value: 'Bohrschrauber' },
      { lang: 'eng', value: 'Drill driver' },
    ]);
    expect(sheet.longTexts).toEqual([{ lang: 'deu', value: '<p>Mit <b>2 Gängen</b></p>\n' }]);
    expect(sheet.features).toEqual([
      {
        ftidref: '0173-1#02-AAF040#004',
        funit: 'mm',
        names: [],
        values: [{ lang: 'deu', value: '13' }],
        details: null,
      },
    ]);
    expect(sheet.group).toEqual({ id: group.id, groupId: group.groupId, name: 'Bohrer' });

    const id = sheet.product.id;
    expect((await rest('GET', `/api/product/${id}`)).body.data).toEqual(sheet.product);
    expect((await rest('GET', `/api/product/${id}/texts/long/deu`)).body.data).toEqual(sheet.longTexts[0]);
    expect((await rest<unknown[]>('GET', `/api/group/${group.id}/products`)).body.data).toHaveLength(1);
    // And the same sheet again through get_product.
    expect(await ok<Sheet>(client, 'get_product', { id })).toEqual(sheet);
  });

  it('creates variants with masterProductId and lists them on the main product', async () => {
    const main = await ok<Sheet>(client, 'create_product', { supplierPid: 'M', name: 'Main' });
    const variant = await ok<Sheet>(client, 'create_product', {
      supplierPid: 'M-2',
      name: 'Variant',
      masterProductId: main.product.id,
    });
    expect(variant.product.masterProduct).toBe(false);
    const sheet = await ok<Sheet>(client, 'get_product', { id: main.product.id });
    expect(sheet.product.variantCount).toBe(1);
    expect(sheet.variants).toEqual([{ id: variant.product.id, supplierPid: 'M-2', name: 'Variant' }]);
    const again = await call(client, 'create_product', {
      supplierPid: 'M-3',
      masterProductId: variant.product.id,
    });
    expect(again.data).toMatchObject({ code: 'VARIANT_OF_VARIANT', status: 400 });
  });

  it('writes nothing when any part fails: all in one transaction', async () => {
    const before = (await rest<unknown[]>('GET', '/api/product?all=true')).body.data;
    const outcome = await call(client, 'create_product', {
      supplierPid: 'HALF',
      shortTexts: [{ lang: 'eng', value: 'x' }],
      features: [{ ftidref: 'F', values: [{ lang: 'xx1', value: '1' }] }],
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.data).toMatchObject({ code: 'INVALID_LANGUAGE', status: 400 });
    const unknownGroup = await call(client, 'create_product', { supplierPid: 'HALF', groupId: 99 });
    expect(unknownGroup.data).toEqual({ error: 'Group 99 not found', code: 'GROUP_NOT_FOUND', status: 404 });
    expect((await rest<unknown[]>('GET', '/api/product?all=true')).body.data).toEqual(before);
    expect((await rest<unknown[]>('GET', '/api/product?supplierPid=HALF')).body.data).toEqual([]);
  });

  it('answers a taken supplierPid, unknown ids and bad arguments with the sentences and statuses of REST', async () => {
    await ok(client, 'create_product', { supplierPid: 'TAKEN' });
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ supplierPid: 'TAKEN' }, { supplierPid: 'TAKEN' }],
      [{ supplierPid: 12 }, { supplierPid: 12 }],
      [
        { supplierPid: 'A', colour: 'red' },
        { supplierPid: 'A', colour: 'red' },
      ],
      [{ supplierPid: '' }, { supplierPid: '' }],
      [
        { supplierPid: 'A', language: 'klingon' },
        { supplierPid: 'A', language: 'klingon' },
      ],
      [
        { supplierPid: 'A', name: '   ' },
        { supplierPid: 'A', name: '   ' },
      ],
      [
        { supplierPid: 'A', masterProductId: 0 },
        { supplierPid: 'A', masterProductId: 0 },
      ],
      [{}, {}],
    ];
    for (const [args, body] of cases) {
      const viaRest = await rest('POST', '/api/product', body);
      const viaTool = await call(client, 'create_product', args);
      expect(viaTool.isError, JSON.stringify(args)).toBe(true);
      expect(viaTool.data).toEqual({
        error: viaRest.body.error,
        code: viaRest.body.code,
        status: viaRest.status,
      });
      expect(viaTool.text).toBe(viaRest.body.error);
    }
    for (const id of [0, -1, 1.5, '1', null]) {
      const outcome = await call(client, 'get_product', { id });
      expect(outcome.data, String(id)).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    }
    expect((await call(client, 'get_product', { id: 404 })).data).toEqual({
      error: 'Product 404 not found',
      code: 'PRODUCT_NOT_FOUND',
      status: 404,
    });
  });

  it('reads names in the language asked for', async () => {
    const { product } = await ok<Sheet>(client, 'create_product', {
      supplierPid: 'L',
      name: 'Hammer',
      shortTexts: [{ lang: 'eng', value: 'Hammer (en)' }],
    });
    expect((await ok<Sheet>(client, 'get_product', { id: product.id, lang: 'eng' })).product.name).toBe(
      'Hammer (en)',
    );
    expect((await call(client, 'get_product', { id: product.id, lang: 'zz' })).data).toMatchObject({
      code: 'INVALID_LANGUAGE',
    });
  });
});

describe('update_product and delete_product', () => {
  it('changes fields, texts, features and group in one call and keeps everything not named', async () => {
    const g1 = (await rest<{ id: number }>('POST', '/api/group', { name: 'G1' })).body.data!;
    const created = await ok<Sheet>(client, 'create_product', {
      supplierPid: 'U',
      name: 'Alt',
      ean: '1',
      shortTexts: [{ lang: 'eng', value: 'Old' }],
      features: [{ ftidref: 'F1', values: [{ lang: 'deu', value: '1' }] }],
      groupId: g1.id,
    });
    const id = created.product.id;
    const updated = await ok<Sheet>(client, 'update_product', {
      id,
      ean: null,
      name: 'Neu',
      longTexts: [{ lang: 'eng', value: 'Long' }],
      features: [{ ftidref: 'F2', funit: 'kg', values: [{ lang: 'eng', value: '2' }] }],
      groupId: null,
    });
    expect(updated.product).toMatchObject({ supplierPid: 'U', name: 'Neu', ean: null });
    expect(updated.shortTexts).toEqual([
      { lang: 'deu', value: 'Neu' },
      { lang: 'eng', value: 'Old' },
    ]);
    expect(updated.longTexts).toEqual([{ lang: 'eng', value: 'Long' }]);
    expect(updated.features.map((f) => f.ftidref)).toEqual(['F1', 'F2']);
    expect(updated.group).toBeNull();
    expect((await rest('GET', `/api/product/${id}`)).body.data).toEqual(updated.product);
  });

  it('changes nothing when a part fails, and refuses masterProductId', async () => {
    const { product } = await ok<Sheet>(client, 'create_product', { supplierPid: 'KEEP', name: 'Keep' });
    const failed = await call(client, 'update_product', {
      id: product.id,
      name: 'Changed',
      features: [{ ftidref: '', values: [] }],
    });
    expect(failed.data).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    const late = await call(client, 'update_product', {
      id: product.id,
      name: 'Changed',
      groupId: 12345,
    });
    expect(late.data).toMatchObject({ code: 'GROUP_NOT_FOUND', status: 404 });
    expect((await rest<{ name: string }>('GET', `/api/product/${product.id}`)).body.data!.name).toBe('Keep');
    const master = await call(client, 'update_product', { id: product.id, masterProductId: 1 });
    expect(master.data).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect((await call(client, 'update_product', { id: 999, name: 'x' })).data).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      status: 404,
    });
  });

  it('deletes a main product with its variants', async () => {
    const main = await ok<Sheet>(client, 'create_product', { supplierPid: 'D' });
    const variant = await ok<Sheet>(client, 'create_product', {
      supplierPid: 'D-1',
      masterProductId: main.product.id,
    });
    expect(await ok(client, 'delete_product', { id: main.product.id })).toEqual({
      deletedId: main.product.id,
    });
    expect((await rest('GET', `/api/product/${variant.product.id}`)).status).toBe(404);
    expect((await call(client, 'delete_product', { id: main.product.id })).data).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      status: 404,
    });
  });
});

describe('search_products', () => {
  it('filters like REST and pages by keyset until nextCursor is null', async () => {
    // Its own application: it pages through the whole catalogue.
    const own = await startServer();
    const ownClient = await connectHttp(own.baseUrl, await own.login());
    try {
      for (let i = 1; i <= 7; i++) {
        const created = await ok<Sheet>(ownClient, 'create_product', {
          supplierPid: `S-${i}`,
          name: i % 2 ? `Schraube ${i}` : `Mutter ${i}`,
          ean: `EAN${i}`,
        });
        if (i === 1)
          await ok(ownClient, 'create_product', {
            supplierPid: 'S-1-V',
            masterProductId: created.product.id,
          });
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page: Page = await ok<Page>(ownClient, 'search_products', {
          limit: 3,
          ...(cursor ? { cursor } : {}),
        });
        seen.push(...page.items.map((p) => p.supplierPid));
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      expect(seen).toEqual(['S-1', 'S-2', 'S-3', 'S-4', 'S-5', 'S-6', 'S-7']);
      const withVariants = await ok<Page>(ownClient, 'search_products', { includeVariants: true });
      expect(withVariants.items).toHaveLength(8);
      expect((await ok<Page>(ownClient, 'search_products', { q: 'schraube' })).items).toHaveLength(4);
      expect(
        (await ok<Page>(ownClient, 'search_products', { ean: 'EAN2' })).items.map((p) => p.supplierPid),
      ).toEqual(['S-2']);
      expect(
        (await ok<Page>(ownClient, 'search_products', { supplierPid: 'S-1-V', includeVariants: true })).items,
      ).toHaveLength(1);
      const later = await ok<Page>(ownClient, 'search_products', { updatedSince: '2030-01-01T00:00:00Z' });
      expect(later.items).toEqual([]);
    } finally {
      await ownClient.close();
      await own.stop();
    }
  });

  it('lists the products of a group, and refuses limits and cursors out of range', async () => {
    const group = (await rest<{ id: number }>('POST', '/api/group', { name: 'G' })).body.data!;
    await ok(client, 'create_product', { supplierPid: 'IN', groupId: group.id });
    await ok(client, 'create_product', { supplierPid: 'OUT' });
    const page = await ok<Page>(client, 'search_products', { groupId: group.id });
    expect(page.items.map((p) => p.supplierPid)).toEqual(['IN']);
    // The group service's check, as REST's GET /api/group/77/products answers it.
    expect((await call(client, 'search_products', { groupId: 77 })).data).toEqual({
      error: 'Group 77 not found',
      code: 'GROUP_NOT_FOUND',
      status: 404,
    });
    expect((await call(client, 'search_products', { limit: 501 })).data).toEqual({
      error: 'limit must be <= 500',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect((await call(client, 'search_products', { cursor: 'nonsense' })).data).toEqual({
      error: "cursor 'nonsense' is not a cursor of this list",
      code: 'INVALID_CURSOR',
      status: 400,
    });
    expect((await call(client, 'search_products', { updatedSince: 'yesterday' })).data).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('returns 50 products by default and cuts names over 2,000 characters with a marker', async () => {
    for (let i = 0; i < 52; i++)
      await rest('POST', '/api/product', { supplierPid: `P${String(i).padStart(2, '0')}` });
    const long = 'x'.repeat(5000);
    const { product } = await ok<Sheet>(client, 'create_product', { supplierPid: 'LONG', name: long });
    const first = await ok<Page>(client, 'search_products', {});
    expect(first.items).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const [found] = (await ok<Page>(client, 'search_products', { supplierPid: 'LONG' })).items;
    expect(found!.name.startsWith('x'.repeat(2000))).toBe(true);
    expect(found!.name).toContain('[cut at 2000 of 5000 characters; get_product has all]');
    expect((await ok<Sheet>(client, 'get_product', { id: product.id })).product.name).toBe(long);
  });

  it('counts and cuts names by characters (code points), never inside a surrogate pair', async () => {
    const names = { FITS: '😀'.repeat(2000), EMOJI: '😀'.repeat(2500), MIXED: `${'x'.repeat(1999)}😀😀y` };
    for (const [supplierPid, name] of Object.entries(names))
      await ok(client, 'create_product', { supplierPid, name });
    const nameOf = async (supplierPid: string) =>
      (await ok<Page>(client, 'search_products', { supplierPid })).items[0]!.name;
    expect(await nameOf('FITS')).toBe(names.FITS);
    expect(await nameOf('EMOJI')).toBe(
      `${'😀'.repeat(2000)}… [cut at 2000 of 2500 characters; get_product has all]`,
    );
    expect(await nameOf('MIXED')).toBe(
      `${'x'.repeat(1999)}😀… [cut at 2000 of 2002 characters; get_product has all]`,
    );
  });
});

describe('without an open workspace', () => {
  it('answers catalogue tools like REST answers 409, and lists and opens workspaces', async () => {
    const bare = await startServer({ setup: 'no-workspace' });
    const bareToken = await bare.login();
    const bareClient = await connectHttp(bare.baseUrl, bareToken);
    try {
      const viaRest = await bare.request('GET', '/api/product', { token: bareToken });
      expect(viaRest.status).toBe(409);
      const outcome = await call(bareClient, 'search_products', {});
      expect(outcome.data).toEqual({
        error: 'No workspace is open: open one with the tool open_workspace (list_workspaces shows them)',
        code: 'NO_WORKSPACE_OPEN',
        status: 409,
      });
      expect(await ok(bareClient, 'list_workspaces')).toEqual({ workspaces: [] });
      // Workspaces are created by the machine's owner (pim workspace create): no REST or tool route.
      await bare.app.workspaces.create(bare.app.ownerContext(), { name: 'Neu' });
      const opened = await ok(bareClient, 'open_workspace', { workspaceName: 'Neu' });
      expect(opened).toMatchObject({ name: 'Neu', active: true });
      expect((await bare.request('GET', '/api/product', { token: bareToken })).status).toBe(200);
      expect((await call(bareClient, 'open_workspace', { workspaceName: 'Neu' })).data).toMatchObject({
        code: 'WORKSPACE_ALREADY_LOADED',
        status: 400,
      });
    } finally {
      await bareClient.close();
      await bare.stop();
    }
  });
});

describe('upsert_products', () => {
  it('creates and updates by supplierPid with per-product results, visible through REST at once', async () => {
    const created = await ok<{ results: { supplierPid: string; id: number; status: number }[] }>(
      client,
      'upsert_products',
      {
        products: [
          { supplierPid: 'UP-VAR', masterSupplierPid: 'UP-MAIN', name: 'Variante' },
          {
            supplierPid: 'UP-MAIN',
            name: 'Haupt',
            features: [{ ftidref: 'EF-1', values: [{ lang: 'deu', value: '1' }] }],
          },
        ],
      },
    );
    expect(created.results.map((r) => [r.supplierPid, r.status])).toEqual([
      ['UP-VAR', 201],
      ['UP-MAIN', 201],
    ]);
    const [variant, main] = created.results;
    const listed = await rest<{ masterProductId: number | null }>('GET', `/api/product/${variant!.id}`);
    expect(listed.body.data!.masterProductId).toBe(main!.id);

    const again = await ok<{ results: { status: number; code?: string }[] }>(client, 'upsert_products', {
      products: [
        { supplierPid: 'UP-MAIN', ean: '42' },
        { supplierPid: 'UP-NEW', groupId: 999_999 },
      ],
    });
    expect(again.results.map((r) => [r.status, r.code])).toEqual([
      [200, undefined],
      [404, 'GROUP_NOT_FOUND'],
    ]);
    expect((await rest<{ ean: string }>('GET', `/api/product/${main!.id}`)).body.data!.ean).toBe('42');
    expect((await rest<unknown[]>('GET', '/api/product?supplierPid=UP-NEW')).body.data).toEqual([]);
    // An empty list is an empty batch, as for REST.
    expect(await ok(client, 'upsert_products', { products: [] })).toEqual({ results: [] });
  });

  it('refuses a call whose products do not match the schema, naming the field, and writes nothing', async () => {
    const outcome = await call(client, 'upsert_products', {
      products: [{ supplierPid: 'UP-OK' }, { supplierPid: 'UP-BAD', shortTexts: 'not a list' }],
    });
    expect(outcome.isError).toBe(true);
    expect(outcome.data).toEqual({
      error: 'products[1].shortTexts must be an array',
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect((await rest<unknown[]>('GET', '/api/product?supplierPid=UP-OK')).body.data).toEqual([]);
  });
});
