import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { WindowClient } from '../helpers/window.js';

/**
 * The product editor's endpoints (issue 33, points 6-8): one read and one write of the whole
 * sheet under the loaded revision, create, create a variant, delete, the languages; the window and
 * REST see each other's changes at once.
 */

const file = serverPerFile({ window: true });
const ECLASS = '0173-1#02-AAF040#004';

interface Sheet {
  product: { id: number; supplierPid: string; ean: string | null; [key: string]: unknown };
  shortTexts: { lang: string; value: string }[];
  longTexts: { lang: string; value: string }[];
  features: { ftidref: string; funit: string | null; values: { lang: string; value: string }[] }[];
  variants: { id: number; supplierPid: string; name: string }[];
  [key: string]: unknown;
}
type Versioned = { sheet: Sheet; revision: string };

let seq = 0;
const pid = (label = 'E') => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

async function admin(): Promise<WindowClient> {
  const window = new WindowClient(file.server);
  await window.login();
  return window;
}

const rest = <T = unknown>(method: string, path: string, body?: unknown) =>
  file.server.request<T>(method, path, { token: file.token, body });

async function restProduct(body: Record<string, unknown> = {}): Promise<number> {
  const res = await rest<{ id: number }>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status).toBe(201);
  return res.body.data!.id;
}

async function load(window: WindowClient, id: number): Promise<Versioned> {
  const res = await window.request<Versioned>('GET', `/products/${id}/sheet`);
  expect(res.status).toBe(200);
  return res.body.data!;
}

describe('GET /ui/api/products/:id/sheet', () => {
  it("answers the product sheet as REST and MCP do, with the product's ETag as its revision", async () => {
    const id = await restProduct({ name: 'Bohrer', ean: '4006381333115' });
    const { sheet, revision } = await load(await admin(), id);
    const restSheet = await rest('GET', `/api/product/${id}/sheet`);
    expect(sheet).toEqual(restSheet.body.data);
    expect(revision).toBe((await rest('GET', `/api/product/${id}`)).headers.get('etag'));
    const english = await (await admin()).request<Versioned>('GET', `/products/${id}/sheet?lang=eng`);
    expect(english.body.data!.sheet.product.name).toBe('Bohrer');
    expect((await (await admin()).request('GET', '/products/999999/sheet')).body.code).toBe(
      'PRODUCT_NOT_FOUND',
    );
  });
});

describe('PUT /ui/api/products/:id/sheet', () => {
  it('saves fields, texts in two languages and an ECLASS feature in one call; REST sees it at once', async () => {
    const window = await admin();
    const id = await restProduct({ name: 'Alt' });
    const { sheet, revision } = await load(window, id);
    const edited = {
      ...sheet,
      product: { ...sheet.product, ean: '4006381333115', manufacturerPid: 'M-1' },
      shortTexts: [
        { lang: 'deu', value: 'Akku-Bohrschrauber' },
        { lang: 'eng', value: 'Cordless drill' },
      ],
      longTexts: [{ lang: 'deu', value: '<p>Kompakt &amp; <b>stark</b></p>\r\n  ' }],
      features: [{ ftidref: ECLASS, funit: 'mm', values: [{ lang: 'zxx', value: '12.5' }] }],
    };
    const res = await window.request<Versioned>('PUT', `/products/${id}/sheet`, {
      body: { revision, sheet: edited },
    });
    expect(res.status).toBe(200);
    expect(res.body.data!.revision).not.toBe(revision);
    const restSheet = (await rest<Sheet>('GET', `/api/product/${id}/sheet`)).body.data!;
    expect(res.body.data!.sheet).toEqual(restSheet);
    expect(restSheet.product).toMatchObject({ ean: '4006381333115', manufacturerPid: 'M-1' });
    expect(restSheet.shortTexts).toEqual(edited.shortTexts);
    expect(restSheet.longTexts).toEqual(edited.longTexts);
    expect(restSheet.features).toMatchObject([
      { ftidref: ECLASS, funit: 'mm', values: edited.features[0]!.values },
    ]);
    const feature = await rest('GET', `/api/product/${id}/features/${encodeURIComponent(ECLASS)}`);
    expect(feature.status).toBe(200);
    // The new revision is the product's ETag: REST's If-Match takes it.
    const chained = await file.server.request('PUT', `/api/product/${id}`, {
      token: file.token,
      body: { manufacturerPid: 'M-2' },
      headers: { 'if-match': res.body.data!.revision },
    });
    expect(chained.status).toBe(200);
  });

  it('deletes a language left out of the sheet', async () => {
    const window = await admin();
    const id = await restProduct({ name: 'Eins' });
    await rest('PUT', `/api/product/${id}/texts/short/eng`, { value: 'One' });
    const { sheet, revision } = await load(window, id);
    const shortTexts = sheet.shortTexts.filter((t) => t.lang !== 'eng');
    const res = await window.request('PUT', `/products/${id}/sheet`, {
      body: { revision, sheet: { ...sheet, shortTexts } },
    });
    expect(res.status).toBe(200);
    expect((await rest('GET', `/api/product/${id}/texts/short/eng`)).status).toBe(404);
  });

  it('refuses a save over a change made through REST since (412, nothing written); null overwrites', async () => {
    const window = await admin();
    const id = await restProduct({ name: 'Vorher' });
    const { sheet, revision } = await load(window, id);
    expect((await rest('PUT', `/api/product/${id}`, { ean: '111' })).status).toBe(200);
    const edited = { ...sheet, product: { ...sheet.product, manufacturerPid: 'MINE' } };
    const refused = await window.request('PUT', `/products/${id}/sheet`, {
      body: { revision, sheet: edited },
    });
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe('PRECONDITION_FAILED');
    const after = (await rest<Sheet>('GET', `/api/product/${id}/sheet`)).body.data!;
    expect(after.product).toMatchObject({ ean: '111', manufacturerPid: null });
    // The editor's "Overwrite": its form as it is, whatever changed meanwhile.
    const overwritten = await window.request<Versioned>('PUT', `/products/${id}/sheet`, {
      body: { revision: null, sheet: edited },
    });
    expect(overwritten.status).toBe(200);
    const now = (await rest<Sheet>('GET', `/api/product/${id}/sheet`)).body.data!;
    expect(now.product).toMatchObject({ ean: null, manufacturerPid: 'MINE' });
    // A revision of another product, or malformed, is no revision of this one.
    const other = await load(window, await restProduct());
    const foreign = await window.request('PUT', `/products/${id}/sheet`, {
      body: { revision: other.revision, sheet: edited },
    });
    expect(foreign.status).toBe(412);
    const malformed = await window.request('PUT', `/products/${id}/sheet`, {
      body: { revision: 'r17', sheet: edited },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'INVALID_PRECONDITION', field: 'revision' });
  });

  it('names the input at fault in `field`, and writes nothing', async () => {
    const window = await admin();
    const taken = pid('TAKEN');
    await restProduct({ supplierPid: taken });
    const id = await restProduct({ name: 'Feld' });
    const { sheet, revision } = await load(window, id);
    const save = (changed: Partial<Sheet>) =>
      window.request('PUT', `/products/${id}/sheet`, { body: { revision, sheet: { ...sheet, ...changed } } });

    const pidTaken = await save({ product: { ...sheet.product, supplierPid: taken } });
    expect(pidTaken.status).toBe(409);
    expect(pidTaken.body).toMatchObject({ code: 'SUPPLIER_PID_TAKEN', field: 'sheet.product.supplierPid' });

    const long = 'x'.repeat(1_000_001);
    const longText = await save({
      shortTexts: [
        { lang: 'deu', value: 'ok' },
        { lang: 'eng', value: long },
      ],
    });
    expect(longText.status).toBe(400);
    expect(longText.body.field).toBe('sheet.shortTexts.1.value');
    expect(longText.body.error).toContain('shortTexts[1].value');

    const longValue = await save({
      features: [
        {
          ftidref: ECLASS,
          funit: null,
          values: [
            { lang: 'deu', value: 'a' },
            { lang: 'eng', value: long },
          ],
        },
      ],
    });
    expect(longValue.status).toBe(400);
    expect(longValue.body.field).toBe('sheet.features.0.values.1.value');

    const badLanguage = await save({ longTexts: [{ lang: 'xx1', value: 'a' }] });
    expect(badLanguage.status).toBe(400);
    expect(badLanguage.body.field).toBe('sheet.longTexts.0.lang');

    const badUnit = await save({ features: [{ ftidref: ECLASS, funit: 'u'.repeat(129), values: [] }] });
    expect(badUnit.status).toBe(400);
    expect(badUnit.body.field).toBe('sheet.features.0.funit');

    // Nothing of it was written: the product is at the revision loaded.
    expect((await load(window, id)).revision).toBe(revision);
  });
});

describe('POST and DELETE /ui/api/products', () => {
  it('creates a product and a variant, answering their sheets; delete names the products it deleted', async () => {
    const window = await admin();
    const supplierPid = pid('NEW');
    const created = await window.request<Versioned>('POST', '/products', {
      body: {
        supplierPid,
        ean: '4006381333115',
        shortTexts: [
          { lang: 'deu', value: 'Neu' },
          { lang: 'eng', value: 'New' },
        ],
        allFeatures: [{ ftidref: ECLASS, values: [{ lang: 'zxx', value: '3' }] }],
      },
    });
    expect(created.status).toBe(201);
    const main = created.body.data!;
    expect(main.sheet.product).toMatchObject({ supplierPid, ean: '4006381333115', name: 'Neu' });
    expect(main.revision).toBe(
      (await rest('GET', `/api/product/${main.sheet.product.id}`)).headers.get('etag'),
    );
    expect((await rest<Sheet>('GET', `/api/product/${main.sheet.product.id}/sheet`)).body.data).toEqual(
      main.sheet,
    );

    const variantPids = [pid('V'), pid('V')];
    for (const variantPid of variantPids) {
      const variant = await window.request<Versioned>('POST', `/products/${main.sheet.product.id}/variants`, {
        body: { supplierPid: variantPid, shortTexts: [{ lang: 'deu', value: 'Variante' }] },
      });
      expect(variant.status).toBe(201);
      expect(variant.body.data!.sheet.product).toMatchObject({
        supplierPid: variantPid,
        masterProductId: main.sheet.product.id,
      });
    }
    const reread = await load(window, main.sheet.product.id);
    expect(reread.sheet.variants.map((v) => v.supplierPid)).toEqual(variantPids);
    expect(reread.revision).not.toBe(main.revision);

    const ofVariant = await window.request('POST', `/products/${reread.sheet.variants[0]!.id}/variants`, {
      body: { supplierPid: pid() },
    });
    expect(ofVariant.body.code).toBe('VARIANT_OF_VARIANT');
    const takenPid = await window.request('POST', '/products', { body: { supplierPid } });
    expect(takenPid.status).toBe(409);
    expect(takenPid.body.field).toBe('supplierPid');

    const deleted = await window.request('DELETE', `/products/${main.sheet.product.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ deleted: 3 });
    expect((await rest('GET', `/api/product/${main.sheet.product.id}`)).status).toBe(404);
    expect((await rest('GET', `/api/product/${reread.sheet.variants[1]!.id}`)).status).toBe(404);
    expect((await window.request('DELETE', `/products/${main.sheet.product.id}`)).status).toBe(404);
  });

  it('deletes a variant alone', async () => {
    const window = await admin();
    const main = await restProduct();
    const variant = await rest<{ id: number }>('POST', `/api/product/${main}/variants`, {
      supplierPid: pid(),
    });
    const deleted = await window.request('DELETE', `/products/${variant.body.data!.id}`);
    expect(deleted.body.data).toEqual({ deleted: 1 });
    expect((await rest('GET', `/api/product/${main}`)).status).toBe(200);
  });
});

describe('rights', () => {
  it('lets a VIEWER read a sheet and refuses every write with 403, writing nothing', async () => {
    const id = await restProduct({ name: 'Nur lesen' });
    const { sheet, revision } = await load(await admin(), id);
    await file.server.addUser('vera', 'VIEWER', 'vera-password-1');
    const viewer = new WindowClient(file.server);
    await viewer.login('vera', 'vera-password-1');
    expect((await viewer.request('GET', `/products/${id}/sheet`)).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ['PUT', `/products/${id}/sheet`, { revision, sheet: { ...sheet, shortTexts: [] } }],
      ['PUT', `/products/${id}/sheet`, { revision: null, sheet }],
      // A sheet the service's own checks refuse: the right is decided before them (403, not 400).
      ['PUT', `/products/${id}/sheet`, { revision, sheet: { ...sheet, group: { id: 999_999 } } }],
      ['POST', '/products', { supplierPid: pid() }],
      ['POST', `/products/${id}/variants`, { supplierPid: pid() }],
      ['DELETE', `/products/${id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await viewer.request(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await load(await admin(), id)).revision).toBe(revision);
  });
});

describe('GET /ui/api/languages', () => {
  it('lists ISO 639-2 in the stored form with English and German names', async () => {
    const res = await (
      await admin()
    ).request<{ code: string; en: string; de: string }[]>('GET', '/languages');
    const list = res.body.data!;
    expect(list).toContainEqual({ code: 'deu', en: 'German', de: 'Deutsch' });
    expect(list).toContainEqual({ code: 'fra', en: 'French', de: 'Französisch' });
    expect(list.find((l) => l.code === 'zxx')).toMatchObject({ en: 'No linguistic content; Not applicable' });
    expect(list.some((l) => l.code === 'ger' || l.code.includes('-'))).toBe(false);
    expect(list.length).toBeGreaterThan(400);
  });
});
