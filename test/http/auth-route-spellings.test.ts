import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Authentication is decided on the route the router matched, not on the URL as written: every
 * spelling of a protected path (percent-encoded letters, absolute form, dot segments, repeated
 * or trailing slashes, upper case) answers 401 without a token, and writes nothing.
 */

let server: TestServer;
let token: string;
let productId: number;
let port: string;

beforeAll(async () => {
  server = await startServer();
  port = new URL(server.baseUrl).port;
  token = await server.login();
  const created = await server.request<{ id: number }>('POST', '/api/product', {
    token,
    body: { supplierPid: 'KEEP-1', name: 'Kept' },
  });
  productId = created.body.data!.id;
});

afterAll(async () => {
  await server.stop();
});

/** The paths of one protected route, spelled every way a client or an attacker might. */
function spellings(path: string): string[] {
  const [, first = '', ...rest] = path.split('/');
  const tail = rest.join('/');
  const encodeFirst = (s: string) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`;
  return [
    path,
    `/${encodeFirst(first)}/${tail}`,
    `/${first}/${encodeFirst(tail)}`,
    `/${[...first].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')}/${tail}`,
    `http://127.0.0.1:${port}${path}`,
    `http://evil.example${path}`,
    `/${first}/x/../${tail}`,
    `/${first}/./${tail}`,
    `/${first}/%2e%2e/${first}/${tail}`,
    `//${first}/${tail}`,
    `/${first}//${tail}`,
    `${path}/`,
    path.toUpperCase(),
    `/${first.toUpperCase()}/${tail}`,
    `${path}?`,
    `${path}#x`,
  ];
}

async function raw(
  method: string,
  target: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const head =
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
    (payload ? `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n` : '');
  const answer = await rawExchange(server.baseUrl, `${head}\r\n${payload}`);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
  return { status, text: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

async function catalogueState(): Promise<string> {
  const products = await server.request('GET', '/api/product?all=true', { token });
  const texts = await server.request('GET', `/api/product/${productId}/texts/short`, { token });
  const groups = await server.request('GET', '/api/group', { token });
  const workspaces = await server.request('GET', '/api/workspace', { token });
  return JSON.stringify([products.body, texts.body, groups.body, workspaces.body]);
}

const ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/api/workspace'],
  ['POST', '/api/workspace/open', { workspaceName: 'Test' }],
  ['GET', '/api/product'],
  ['POST', '/api/product', { supplierPid: 'BYPASS' }],
  ['GET', '/api/product/1'],
  ['PUT', '/api/product/1', { supplierPid: 'BYPASSED' }],
  ['GET', '/api/product/1/sheet'],
  [
    'PUT',
    '/api/product/1/sheet',
    {
      product: { supplierPid: 'BYPASSED' },
      shortTexts: [],
      longTexts: [],
      features: [],
      groups: [],
      manufacturerName: 'bypassed',
      keywords: [],
      media: [],
      fragments: [],
    },
  ],
  ['PUT', '/api/product/1/texts/short/deu', { value: 'bypassed' }],
  ['PUT', '/api/product/1/features/COLOR', { values: [{ lang: 'deu', value: 'rot' }] }],
  ['POST', '/api/group', { name: 'Bypass' }],
  ['GET', '/api/group/tree'],
  ['DELETE', '/api/product/1'],
  ['POST', '/api/product/bulk', [{ supplierPid: 'BYPASS-BULK' }]],
  ['POST', '/api/product/bulk-delete', { ids: [1] }],
  ['GET', '/api/product/deleted?since=2026-01-01'],
  ['POST', '/api/auth/logout'],
  ['GET', '/api/export'],
  ['GET', '/api/export/header'],
  ['PUT', '/api/export/header', { catalogId: 'BYPASS' }],
  ['POST', '/api/import', '<BMECAT/>'],
  ['GET', '/api/job'],
  ['GET', '/api/job/1'],
  ['POST', '/api/job/1/cancel'],
];

describe('every spelling of a protected path needs a token', () => {
  it.each(ROUTES)('%s %s: 401 in the envelope, nothing written', async (method, path, body) => {
    const before = await catalogueState();
    for (const target of spellings(path)) {
      const answer = await raw(method, target, body);
      // A '#' is refused before routing, as an undecodable path is (400 INVALID_URL): never served.
      const refused = target.includes('#') ? 400 : 401;
      expect(answer.status, `${method} ${target}: ${answer.text}`).toBe(refused);
      expect(JSON.parse(answer.text), `${method} ${target}`).toMatchObject({ success: false });
    }
    expect(await catalogueState()).toBe(before);
  });

  it('the encoded spellings reach the route with a token (the test spells real routes)', async () => {
    const answer = await server.request('GET', '/%61pi/workspace', { token });
    expect(answer.status).toBe(200);
    const product = await server.request('GET', `/api/produc%74/${productId}`, { token });
    expect(product.status).toBe(200);
  });

  it('the public routes stay public, however spelled', async () => {
    expect((await raw('GET', '/%61pi/openapi.json')).status).toBe(200);
    expect((await raw('GET', '/api/docs')).status).toBeLessThan(400);
    const login = await server.request('POST', '/%61pi/auth/login', {
      body: { username: 'admin', password: 'wrong' },
    });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('INVALID_CREDENTIALS');
  });
});
