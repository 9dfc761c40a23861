import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';
import { pid, productRest } from './products.fixtures.js';

/** Rights on the product routes over REST: VIEWER, EDITOR, no token. */

const file = serverPerFile();

const { call, create, get } = productRest(file);

describe('rights', () => {
  it('lets a VIEWER read but not write (403), and an EDITOR write', async () => {
    await file.server.addUser('viewer1', 'VIEWER');
    await file.server.addUser('editor1', 'EDITOR');
    const viewer = await file.server.login('viewer1', 'viewer1-password');
    const editor = await file.server.login('editor1', 'editor1-password');
    const p = await create({ name: 'x' });
    await call('PUT', `/api/product/${p.id}/features/F`, { values: [{ lang: 'deu', value: '1' }] });
    for (const path of [
      '/api/product',
      `/api/product/${p.id}`,
      `/api/product/${p.id}/variants`,
      `/api/product/${p.id}/texts/short`,
      `/api/product/${p.id}/texts/short/deu`,
      `/api/product/${p.id}/texts/long`,
      `/api/product/${p.id}/features`,
      `/api/product/${p.id}/features/F`,
      `/api/product/${p.id}/features/F/deu`,
    ]) {
      expect((await call('GET', path, undefined, viewer)).status, path).toBe(200);
    }
    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/api/product', { supplierPid: pid() }],
      ['PUT', `/api/product/${p.id}`, { ean: '1' }],
      ['POST', `/api/product/${p.id}/variants`, { supplierPid: pid() }],
      ['PUT', `/api/product/${p.id}/texts/short/deu`, { value: 'y' }],
      ['DELETE', `/api/product/${p.id}/texts/short/deu`],
      ['PUT', `/api/product/${p.id}/features/F`, { values: [] }],
      ['PUT', `/api/product/${p.id}/features/F/deu`, { value: '2' }],
      ['DELETE', `/api/product/${p.id}/features/F/deu`],
      ['DELETE', `/api/product/${p.id}/features/F`],
      ['DELETE', `/api/product/${p.id}`],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body, viewer);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await get(p.id)).toEqual(p);
    for (const [method, path, body] of writes) {
      const res = await call(method, path, body, editor);
      expect(res.status, `${method} ${path}`).toBeLessThan(300);
    }
  });

  it('answers 401 without a token', async () => {
    const res = await file.server.request('GET', '/api/product');
    expect(res.status).toBe(401);
  });
});
