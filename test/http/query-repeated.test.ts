import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/** A query parameter given twice is refused as such (400 naming it), never read as a wrong type. */

const file = serverPerFile();

const api = <T = unknown>(method: string, path: string, body?: unknown) =>
  file.server.request<T>(method, path, { token: file.token, body });

const repeated = (name: string, count = 2) => ({
  success: false,
  error: `Query parameter ${name} is given ${count} times: send it once`,
  code: 'VALIDATION_FAILED',
});

describe('a repeated query parameter', () => {
  it('is named on every route that takes query parameters, whatever its type', async () => {
    const product = await api<{ id: number }>('POST', '/api/product', { supplierPid: 'Q-1' });
    const group = await api<{ id: number }>('POST', '/api/group', { name: 'Q' });
    const [p, g] = [product.body.data!.id, group.body.data!.id];
    const cases: [string, string, string, number?][] = [
      ['GET', '/api/product?limit=1&limit=2', 'limit'],
      ['GET', '/api/product?all=true&all=true', 'all'],
      ['GET', '/api/product?q=a&q=b&q=c', 'q', 3],
      ['GET', '/api/product?limit=1&supplierPid=Q-1&supplierPid=Q-1', 'supplierPid'],
      ['GET', `/api/product/${p}?lang=deu&lang=eng`, 'lang'],
      ['GET', '/api/product/deleted?since=2026-01-01&since=2026-01-02', 'since'],
      ['GET', `/api/group/${g}/products?lang=deu&lang=fra`, 'lang'],
      ['GET', '/api/group/tree?lang=deu&lang=deu', 'lang'],
      ['DELETE', `/api/group/${g}?deleteProducts=true&deleteProducts=false`, 'deleteProducts'],
    ];
    for (const [method, path, name, count] of cases) {
      const res = await api(method, path);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(400);
      expect(res.body).toEqual(repeated(name, count));
    }
    // The DELETE above changed nothing.
    expect((await api('GET', `/api/group/${g}`)).status).toBe(200);
  });

  it('stays an unknown parameter where the route takes none of that name', async () => {
    for (const path of ['/api/product?sort=a&sort=b', '/api/workspace?x=1&x=2']) {
      const res = await api('GET', path);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`Unknown parameter '${path.includes('sort') ? 'sort' : 'x'}'`);
    }
  });

  it('leaves a parameter given once as it was', async () => {
    const res = await api<unknown[]>('GET', '/api/product?limit=1');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});
