import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  supplierPid: string;
  createdAt: string;
  updatedAt: string;
}

let server: TestServer;
let token: string;
let seq = 0;
const pid = () => `U-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });

async function create(body: Record<string, unknown> = {}): Promise<Product> {
  const res = await call<Product>('POST', '/api/product', { supplierPid: pid(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data!;
}
const read = async (id: number) => (await call<Product>('GET', `/api/product/${id}`)).body.data!;
/** Moves the test clock on by one minute and returns the new time as the API writes it. */
const tick = () => {
  server.clock.advance(60_000);
  return server.clock.now().toISOString();
};

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

describe('createdAt and updatedAt', () => {
  it('are ISO 8601 UTC instants of the creation', async () => {
    const at = tick();
    const p = await create();
    expect(p.createdAt).toBe(at);
    expect(p.updatedAt).toBe(at);
    expect(p.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('every change to the product, its texts or features touches updatedAt, never createdAt', async () => {
    const p = await create();
    const changes: Array<[string, string, unknown?]> = [
      ['PUT', '', { ean: '1' }],
      ['PUT', '', { name: 'neu' }],
      ['PUT', '/texts/short/eng', { value: 'x' }],
      ['PUT', '/texts/long/eng', { value: 'x' }],
      ['DELETE', '/texts/short/eng'],
      ['PUT', '/features/F', { values: [{ lang: 'deu', value: '1' }] }],
      ['PUT', '/features/F', { funit: 'mm', values: [] }],
      ['PUT', '/features/F/eng', { value: '2' }],
      ['DELETE', '/features/F/eng'],
      ['DELETE', '/features/F'],
    ];
    for (const [method, path, body] of changes) {
      const at = tick();
      expect((await call(method, `/api/product/${p.id}${path}`, body)).status, `${method} ${path}`).toBe(200);
      const now = await read(p.id);
      expect(now.updatedAt, `${method} ${path}`).toBe(at);
      expect(now.createdAt).toBe(p.createdAt);
    }
  });

  it('reads and failed requests do not touch updatedAt', async () => {
    const p = await create();
    tick();
    await call('GET', `/api/product/${p.id}`);
    await call('GET', `/api/product/${p.id}/texts/short`);
    await call('GET', `/api/product/${p.id}/features`);
    await call('PUT', `/api/product/${p.id}`, { ean: 5 });
    await call('PUT', `/api/product/${p.id}/texts/short/xx`, { value: 'v' });
    await call('DELETE', `/api/product/${p.id}/texts/short/deu`);
    await call('DELETE', `/api/product/${p.id}/features/none`);
    await call('PUT', `/api/product/${p.id}`, {});
    expect((await read(p.id)).updatedAt).toBe(p.updatedAt);
  });

  it('a change to a variant also touches its main product, but not its siblings', async () => {
    const main = await create();
    const sibling = (await call<Product>('POST', `/api/product/${main.id}/variants`, { supplierPid: pid() }))
      .body.data!;
    let at = tick();
    const variant = (await call<Product>('POST', `/api/product/${main.id}/variants`, { supplierPid: pid() }))
      .body.data!;
    expect((await read(main.id)).updatedAt).toBe(at);
    const changes: Array<[string, string, unknown?]> = [
      ['PUT', '', { ean: '9' }],
      ['PUT', '/texts/long/deu', { value: 'x' }],
      ['PUT', '/features/F', { values: [{ lang: 'deu', value: '1' }] }],
      ['DELETE', '/features/F'],
    ];
    for (const [method, path, body] of changes) {
      at = tick();
      expect((await call(method, `/api/product/${variant.id}${path}`, body)).status).toBe(200);
      expect((await read(variant.id)).updatedAt).toBe(at);
      expect((await read(main.id)).updatedAt, `${method} ${path}`).toBe(at);
    }
    expect((await read(sibling.id)).updatedAt).toBe(sibling.updatedAt);
    at = tick();
    expect((await call('DELETE', `/api/product/${variant.id}`)).status).toBe(200);
    expect((await read(main.id)).updatedAt).toBe(at);
    // a change to the main product does not touch its variants
    tick();
    await call('PUT', `/api/product/${main.id}`, { ean: '7' });
    expect((await read(sibling.id)).updatedAt).toBe(sibling.updatedAt);
  });
});
