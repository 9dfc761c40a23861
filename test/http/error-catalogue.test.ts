import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, ERROR_CODE_NAMES } from '../../src/domain/error-codes.js';
import { rawExchange } from '../helpers/http.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

/** One catalogue of codes: every error answer carries one of them, with its status; no framework codes. */

let server: TestServer;
let token: string;
let doc: {
  info: { description: string };
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, ResponseObject> }>>;
  components: { schemas?: Record<string, unknown> };
};
type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: unknown };

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  doc = (await server.request('GET', '/api/openapi.json')).body as unknown as typeof doc;
});

afterAll(async () => {
  await server.stop();
});

function expectCatalogued(answer: ApiResponse, what: string): void {
  const code = answer.body.code as keyof typeof ERROR_CATALOGUE;
  expect(answer.body.success, what).toBe(false);
  expect(ERROR_CODE_NAMES, `${what}: ${answer.text}`).toContain(code);
  expect(answer.status, `${what}: ${code}`).toBe(ERROR_CATALOGUE[code][0]);
  expect(answer.text, what).not.toMatch(/FST_/);
}

describe('error codes', () => {
  it('every error answer carries a catalogued code with its status, never a framework code', async () => {
    const json = { 'content-type': 'application/json' };
    const cases: Array<[string, Promise<ApiResponse>]> = [
      ['no token', server.request('GET', '/api/product')],
      ['bad token', server.request('GET', '/api/product', { token: 'nope' })],
      ['unknown route', server.request('GET', '/api/nothing', { token })],
      ['wrong method', server.request('DELETE', '/api/workspace', { token })],
      ['malformed JSON', server.request('POST', '/api/product', { token, rawBody: '{"a":', headers: json })],
      [
        'not JSON',
        server.request('POST', '/api/product', {
          token,
          rawBody: 'x',
          headers: { 'content-type': 'text/plain' },
        }),
      ],
      [
        'too large',
        server.request('POST', '/api/product', { token, rawBody: 'x'.repeat(9 << 20), headers: json }),
      ],
      ['validation', server.request('POST', '/api/product', { token, body: { supplierPid: 1 } })],
      ['unknown product', server.request('GET', '/api/product/999999', { token })],
      ['bad language', server.request('GET', '/api/product/1/texts/short/xx', { token })],
      ['bad URL', server.request('GET', '/api/product/%FF', { token })],
      ['bad cursor', server.request('GET', '/api/product?limit=1&after=zzz', { token })],
      [
        'unknown workspace',
        server.request('POST', '/api/workspace/open', { token, body: { workspaceId: 99 } }),
      ],
      [
        'already loaded',
        server.request('POST', '/api/workspace/open', { token, body: { workspaceName: 'Test' } }),
      ],
      ['wrong login', server.request('POST', '/api/auth/login', { body: { username: 'x', password: 'y' } })],
    ];
    for (const [what, answer] of cases) expectCatalogued(await answer, what);
    const raw = await rawExchange(server.baseUrl, 'FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(raw).toContain('"code":"MALFORMED_REQUEST"');
  });

  it('names blank product and group names alike', async () => {
    for (const name of ['', '   ', '\t\n']) {
      const product = await server.request('POST', '/api/product', {
        token,
        body: { supplierPid: 'BLANK', name },
      });
      const group = await server.request('POST', '/api/group', { token, body: { name } });
      for (const answer of [product, group]) {
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe('name must not be empty or only white space or invisible characters');
      }
    }
  });

  it('says what to do about a trailing slash and about characters that were not percent-encoded', async () => {
    const slash = await server.request('GET', '/api/product/', { token });
    expect(slash.status).toBe(404);
    expect(slash.body.error).toBe(
      'No such endpoint: GET /api/product/; remove the trailing slash: GET /api/product',
    );
    const raw = await rawExchange(
      server.baseUrl,
      'GET /api/product/1/features/Farbe-\u00e4 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain('"code":"INVALID_URL"');
    expect(raw).toContain('percent-encode');
  });
});

describe('the description', () => {
  it('lists the catalogue and allows only its codes in the error envelope', () => {
    for (const code of ERROR_CODE_NAMES) expect(doc.info.description).toContain(`| ${code} |`);
    const schema = JSON.stringify(doc.paths['/api/product']!.get!.responses['401']);
    expect(schema).toContain('"PRODUCT_NOT_FOUND"');
    expect(schema).toMatch(/"required":\["success","error","code"\]/);
  });

  it('gives every operation a unique operationId and every response a description', () => {
    const ids: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(operation.operationId!);
        for (const [status, response] of Object.entries(operation.responses)) {
          expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
        }
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(doc.components.schemas ?? {}).filter((name) => /^def-\d+$/.test(name))).toEqual([]);
  });

  it('documents Location, Link, Retry-After and WWW-Authenticate where they are sent', () => {
    const headers = (path: string, method: string, status: string) =>
      Object.keys(doc.paths[path]![method]!.responses[status]!.headers ?? {});
    expect(headers('/api/product', 'post', '201')).toEqual(['Location', 'ETag']);
    expect(headers('/api/group', 'post', '201')).toEqual(['Location']);
    expect(headers('/api/product', 'get', '200')).toEqual(['Link', 'ETag']);
    expect(headers('/api/product', 'get', '304')).toEqual(['ETag']);
    expect(headers('/api/auth/login', 'post', '429')).toEqual(['Retry-After']);
    expect(headers('/api/auth/login', 'post', '503')).toEqual(['Retry-After']);
    expect(headers('/api/workspace', 'get', '401')).toEqual(['WWW-Authenticate']);
  });

  it('documents Allow on the 405 of every operation, as every path answers one with it', async () => {
    const methods = ['get', 'post', 'put', 'delete', 'patch'];
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!Object.keys(operation.responses['405']?.headers ?? {}).includes('Allow'))
          missing.push(`${method} ${path}`);
      }
      // What is documented is what the path answers to a method it lacks.
      const lacking = methods.find((method) => !(method in operations))!;
      const concrete = path.replace(/\{[^}]+\}/g, '1');
      const answer = await server.request(lacking.toUpperCase(), concrete, {
        token,
        body: lacking === 'get' ? undefined : {},
      });
      expect(answer.status, `${lacking} ${concrete}: ${answer.text}`).toBe(405);
      expect(answer.headers.get('allow'), `${lacking} ${concrete}`).toMatch(/^[A-Z, ]+$/);
    }
    expect(missing).toEqual([]);
  });
});
