import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/domain/errors.js';
import { buildHttpApp } from '../../src/http/app.js';
import { rawExchange } from '../helpers/http.js';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const MIB = 1024 * 1024;

/** The envelope of an error: success false, an English sentence, optionally a code; nothing else. */
function expectErrorEnvelope(res: ApiResponse, status: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe(JSON_TYPE);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.body).toEqual({ success: false, error: expect.any(String), code: expect.any(String) });
  expect(res.body.error!.length).toBeGreaterThan(5);
}

function jsonBodyOfSize(bytes: number): string {
  const prefix = '{"username":"';
  const suffix = '","password":"x"}';
  return prefix + 'u'.repeat(bytes - prefix.length - suffix.length) + suffix;
}

describe('cross-cutting HTTP behaviour', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
  });
  afterAll(() => server.stop());

  it('wraps success in {success, data} with JSON content type and CORS header', async () => {
    const res = await server.request('GET', '/api/workspace', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(JSON_TYPE);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success']);
  });

  it.each([
    ['GET', '/api/no-such-endpoint'],
    ['POST', '/api/workspaces'],
    ['GET', '/api/workspace/open/extra'],
    ['GET', '/api/auth'],
  ])('answers 404 in the envelope for the unknown route %s %s', async (method, path) => {
    expectErrorEnvelope(await server.request(method, path, { token }), 404);
  });

  it.each([['/'], ['/no-such-page'], ['/index.html']])(
    'answers 404 in the envelope outside /api: %s',
    async (path) => {
      expectErrorEnvelope(await server.request('GET', path), 404);
    },
  );

  it.each([
    ['DELETE', '/api/workspace', ['GET']],
    ['PUT', '/api/workspace', ['GET']],
    ['GET', '/api/auth/login', ['POST']],
    ['GET', '/api/workspace/open', ['POST']],
    ['PUT', '/api/auth/logout', ['POST']],
    // Static paths that a parametric route of another method also matches (PUT /api/product/{id}).
    ['PUT', '/api/product/deleted', ['GET']],
    ['DELETE', '/api/product/deleted?since=2026-01-01', ['GET']],
    ['PUT', '/api/group/tree', ['GET']],
    ['DELETE', '/api/group/tree', ['GET']],
  ])('answers 405 with Allow for %s %s', async (method, path, allowed) => {
    const res = await server.request(method, path, { token });
    expectErrorEnvelope(res, 405);
    const allow = res.headers.get('allow')!.split(/,\s*/);
    for (const m of allowed) expect(allow).toContain(m);
    expect(allow).not.toContain(method);
  });

  it('answers 413 for a body over 8 MiB, and reads a body just under the limit', async () => {
    const headers = { 'content-type': 'application/json' };
    expectErrorEnvelope(
      await server.request('POST', '/api/auth/login', { rawBody: jsonBodyOfSize(8 * MIB + 1), headers }),
      413,
    );
    expectErrorEnvelope(
      await server.request('POST', '/api/workspace/open', {
        token,
        rawBody: `{"workspaceName":"${'w'.repeat(9 * MIB)}"}`,
        headers,
      }),
      413,
    );
    // Under the limit the body is read, and refused for what it says (supplierPid too long).
    const prefix = '{"supplierPid":"';
    const under = await server.request('POST', '/api/product', {
      token,
      rawBody: `${prefix}${'p'.repeat(8 * MIB - 1 - prefix.length - 2)}"}`,
      headers,
    });
    expectErrorEnvelope(under, 400);
    expect(under.body.error).toMatch(/supplierPid/);
  });

  it.each([
    ['text/plain', '{"username":"admin","password":"x"}'],
    ['application/x-www-form-urlencoded', 'username=admin&password=x'],
    [
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nadmin\r\n--xyz--\r\n',
    ],
    ['application/xml', '<login/>'],
  ])('answers 415 for a %s body', async (type, rawBody) => {
    expectErrorEnvelope(
      await server.request('POST', '/api/auth/login', { rawBody, headers: { 'content-type': type } }),
      415,
    );
    expectErrorEnvelope(
      await server.request('POST', '/api/workspace/open', {
        token,
        rawBody,
        headers: { 'content-type': type },
      }),
      415,
    );
  });

  it('names the body types the route takes when it refuses another (415)', async () => {
    const plain = { rawBody: '{}', headers: { 'content-type': 'text/plain' } };
    const product = await server.request('POST', '/api/product', { token, ...plain });
    expectErrorEnvelope(product, 415);
    expect(product.body.error).toBe('Request body must be application/json');
    const bulk = await server.request('POST', '/api/product/bulk', { token, ...plain });
    expectErrorEnvelope(bulk, 415);
    expect(bulk.body.error).toBe('Request body must be application/json or application/x-ndjson');
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await server.request('POST', '/api/workspace/open', {
      token,
      rawBody: '{"workspaceName":"Test"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectErrorEnvelope(res, 400);
    expect(res.body.error).toMatch(/already loaded/);
  });

  it('refuses a transfer coding other than chunked (415): Node would pass the body on undecoded', async () => {
    const supplierPid = `TE-${Date.now()}`;
    const json = JSON.stringify({ supplierPid });
    const chunked = `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`;
    const answer = await rawExchange(
      server.baseUrl,
      `POST /api/product HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n${chunked}`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 415 Unsupported Media Type');
    const refused = JSON.parse(body!) as { code: string; error: string };
    expect(refused.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(refused.error).toMatch(/^Transfer-Encoding gzip, chunked is not supported/);
    expect(
      (await server.request('GET', `/api/product?supplierPid=${supplierPid}`, { token })).body.data,
    ).toEqual([]);
  });

  it('refuses a body it would read otherwise than sent: another charset, a content coding (415)', async () => {
    const body = { supplierPid: `ENC-${Date.now()}` };
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'content-type': 'application/json; charset=utf-16' }, /charset=utf-16 is not supported/],
      [{ 'content-type': 'application/json; charset=latin1' }, /charset=latin1 is not supported/],
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, /Content-Encoding gzip/],
      [{ 'content-type': 'application/x-ndjson', 'content-encoding': 'br' }, /Content-Encoding br/],
    ];
    for (const [headers, message] of cases) {
      const path = headers['content-type']!.includes('ndjson') ? '/api/product/bulk' : '/api/product';
      const rawBody = path.endsWith('bulk') ? `${JSON.stringify(body)}\n` : JSON.stringify(body);
      const res = await server.request('POST', path, { token, rawBody, headers });
      expectErrorEnvelope(res, 415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.error).toMatch(message);
    }
    expect(
      (await server.request('GET', `/api/product?supplierPid=${body.supplierPid}`, { token })).body.data,
    ).toEqual([]);
    const accepted: Record<string, string>[] = [
      { 'content-type': 'application/json; charset=UTF-8' },
      { 'content-type': 'application/json;charset="utf8"', 'content-encoding': 'identity' },
    ];
    for (const [i, headers] of accepted.entries()) {
      const rawBody = JSON.stringify({ supplierPid: `${body.supplierPid}-${i}` });
      const created = await server.request('POST', '/api/product', { token, rawBody, headers });
      expect(created.status, created.text).toBe(201);
    }
  });

  it('names the key __proto__ (or constructor.prototype) instead of calling the body invalid JSON', async () => {
    const headers = { 'content-type': 'application/json' };
    for (const rawBody of [
      '{"supplierPid":"x","__proto__":{"a":1}}',
      '{"constructor":{"prototype":{"a":1}}}',
    ]) {
      const res = await server.request('POST', '/api/product', { token, rawBody, headers });
      expectErrorEnvelope(res, 400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        error: 'Request body must not contain the key __proto__, nor a key constructor holding prototype',
      });
    }
  });

  it('refuses unknown query parameters on every route, workspaces, login and bulk included (400)', async () => {
    const cases: [string, string, unknown][] = [
      ['GET', '/api/workspace?x=1', undefined],
      ['POST', '/api/workspace/open?x=1', { workspaceName: 'Test' }],
      ['POST', '/api/auth/login?x=1', { username: 'admin', password: 'wrong' }],
      ['POST', '/api/product/bulk?x=1', []],
      ['POST', '/api/product/bulk-delete?x=1', { ids: [1] }],
      ['GET', '/api/product/1/features?x=1', undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await server.request(method, path, { token, ...(body === undefined ? {} : { body }) });
      expectErrorEnvelope(res, 400);
      expect(res.body.error, path).toBe("Unknown parameter 'x'");
    }
  });

  it('answers 415 to NDJSON on every route but the bulk upsert', async () => {
    const res = await server.request('POST', '/api/product/bulk-delete', {
      token,
      rawBody: '{"ids":[99998]}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expectErrorEnvelope(res, 415);
  });

  it('answers 400 for malformed JSON on every endpoint with a body', async () => {
    const headers = { 'content-type': 'application/json' };
    expectErrorEnvelope(
      await server.request('POST', '/api/auth/login', { rawBody: '{"username":', headers }),
      400,
    );
    expectErrorEnvelope(
      await server.request('POST', '/api/workspace/open', { token, rawBody: "{'workspaceId': 1}", headers }),
      400,
    );
    const logoutToken = await server.login();
    expectErrorEnvelope(
      await server.request('POST', '/api/auth/logout', { token: logoutToken, rawBody: '{', headers }),
      400,
    );
    // The refused logout changed nothing: the token still works.
    expect((await server.request('GET', '/api/workspace', { token: logoutToken })).status).toBe(200);
  });

  it('answers a CORS preflight with 204 and no token: allowed methods and headers', async () => {
    for (const path of ['/api/workspace', '/api/auth/login', '/api/product/1', '/api/no-such-endpoint']) {
      const res = await server.request('OPTIONS', path, {
        headers: {
          origin: 'http://tool.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const methods = res.headers.get('access-control-allow-methods')!.split(/,\s*/);
      expect(methods.sort()).toEqual(['DELETE', 'GET', 'OPTIONS', 'POST', 'PUT']);
      const allowedHeaders = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
      expect(allowedHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    }
  });

  it('sends Access-Control-Allow-Origin: * on errors too', async () => {
    for (const res of [
      await server.request('GET', '/api/workspace'),
      await server.request('GET', '/api/no-such-endpoint', { token }),
      await server.request('DELETE', '/api/workspace', { token }),
      await server.request('POST', '/api/auth/login', { body: {} }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('checks the role right before the body', async () => {
    await server.addUser('order-viewer', 'VIEWER', 'order-viewer-password');
    const viewer = await server.login('order-viewer', 'order-viewer-password');
    expectErrorEnvelope(
      await server.request('POST', '/api/workspace/open', {
        token: viewer,
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      }),
      403,
    );
  });

  it('checks route and method (404, 405) before the body (413, 415, 400)', async () => {
    const big = { rawBody: jsonBodyOfSize(9 * MIB), headers: { 'content-type': 'application/json' } };
    const text = { rawBody: 'hello', headers: { 'content-type': 'text/plain' } };
    const broken = { rawBody: '{', headers: { 'content-type': 'application/json' } };
    for (const body of [big, text, broken]) {
      expectErrorEnvelope(await server.request('POST', '/api/no-such-endpoint', { token, ...body }), 404);
      expectErrorEnvelope(await server.request('PUT', '/api/workspace/open', { token, ...body }), 405);
    }
  });

  it.each([
    ['/api/product/%FF'],
    ['/api/product/1/features/%E0%A4%A'],
    ['/api/group/%C3/products'],
    ['/%FF'],
  ])('answers 400 in the envelope for a path that does not decode: %s', async (path) => {
    for (const options of [{ token }, {}]) {
      const res = await server.request('GET', path, options);
      expectErrorEnvelope(res, 400);
      expect(res.body.code).toBe('INVALID_URL');
    }
  });

  it.each([
    ['/api/product?supplierPid=R%FFX'],
    ['/api/product?q=%E0%A4%A'],
    ['/api/product?q=50%'],
    ['/mcp?x=%FF'],
  ])('answers 400 in the envelope for a query string that does not decode: %s', async (path) => {
    const res = await server.request('GET', path, { token });
    expectErrorEnvelope(res, 400);
    expect(res.body.code).toBe('INVALID_URL');
    expect(res.body.error).toMatch(/^The query string is not valid percent-encoded UTF-8/);
  });

  it("answers 400 in the envelope for a request target holding a '#' (a fragment is never sent)", async () => {
    for (const target of ['/api/product/1#x', '/api/product/1#/../../workspace', '/api/product?q=a#b']) {
      const answer = await rawExchange(
        server.baseUrl,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      const [head, body] = answer.split('\r\n\r\n');
      expect(head!.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(body!), target).toMatchObject({ success: false, code: 'INVALID_URL' });
    }
  });

  it('answers 400 in the envelope for a path segment over 1,000 characters', async () => {
    const res = await server.request('GET', `/api/product/1/features/${'f'.repeat(1001)}`, { token });
    expectErrorEnvelope(res, 400);
    expect(res.body.code).toBe('PATH_SEGMENT_TOO_LONG');
  });

  it.each([
    ['an unknown method', 'FOO /api/product HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
    [
      'CONNECT, a tunnel',
      'CONNECT 127.0.0.1:5432 HTTP/1.1\r\nHost: 127.0.0.1:5432\r\n\r\n',
      400,
      'MALFORMED_REQUEST',
    ],
    ['CONNECT to a path', 'CONNECT /api/product HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
    [
      'a header line without a colon',
      'GET /api/product HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      400,
      'MALFORMED_REQUEST',
    ],
    [
      'headers over the size limit',
      `GET /api/product HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
  ])(
    'answers a request that is not valid HTTP (%s) in the envelope',
    async (_what, request, status, code) => {
      const answer = await rawExchange(server.baseUrl, request);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head!.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Request Header Fields Too Large'}`,
      );
      expect(head!.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
      expect(head!.toLowerCase()).toContain('access-control-allow-origin: *');
      expect(JSON.parse(body!)).toEqual({ success: false, error: expect.any(String), code });
    },
  );

  it('checks the token before everything else, also on unknown paths under /api', async () => {
    const big = { rawBody: jsonBodyOfSize(9 * MIB), headers: { 'content-type': 'application/json' } };
    expectErrorEnvelope(await server.request('POST', '/api/workspace/open', big), 401);
    expectErrorEnvelope(await server.request('POST', '/api/no-such-endpoint', big), 401);
    expectErrorEnvelope(await server.request('DELETE', '/api/workspace'), 401);
  });
});

/**
 * The application without a workspace, shared by the tests below that open none: those that build
 * an HTTP app of their own only borrow its services. Opening a workspace takes an application of
 * its own.
 */
const withoutWorkspace = lazyServerPerFile({ setup: 'no-workspace' });

describe('409 while no workspace is open', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await withoutWorkspace();
    token = await server.login();
  });

  const PATHS = [
    '/api/product',
    '/api/product/1',
    '/api/product/1/texts/short',
    '/api/product/1/texts/short/deu',
    '/api/product/1/features/0173-1%2302-AAF040%23004',
    '/api/product/1/variants',
    '/api/product/not-a-number/nonsense',
    '/api/group',
    '/api/group/tree',
    '/api/group/1',
    '/api/group/1/products',
    '/api/group/1/products/2',
  ];

  it.each(PATHS)(
    'answers 409 to GET, POST, PUT and DELETE on %s (401 first without a token)',
    async (path) => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const body = method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined;
        expectErrorEnvelope(await server.request(method, path, { body }), 401);
        const res = await server.request(method, path, { token, body });
        expectErrorEnvelope(res, 409);
        expect(res.body.code).toBe('NO_WORKSPACE_OPEN');
      }
    },
  );

  it('answers 409 before looking at the body (413, 415, 400)', async () => {
    for (const options of [
      { rawBody: 'x'.repeat(9 * MIB), headers: { 'content-type': 'application/json' } },
      { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { rawBody: '{"name":', headers: { 'content-type': 'application/json' } },
    ]) {
      expectErrorEnvelope(await server.request('POST', '/api/product', { token, ...options }), 409);
      expectErrorEnvelope(await server.request('POST', '/api/group', { token, ...options }), 409);
    }
  });

  it('does not guard paths that merely start with the same letters, nor workspace endpoints', async () => {
    expectErrorEnvelope(await server.request('GET', '/api/products', { token }), 404);
    expectErrorEnvelope(await server.request('GET', '/api/groups', { token }), 404);
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);
  });

  it('stops answering 409 once a workspace is open', async () => {
    // Its own: it opens a workspace.
    const local = await startServer({ setup: 'no-workspace' });
    try {
      const localToken = await local.login();
      expect((await local.request('GET', '/api/no-such/thing', { token: localToken })).status).toBe(404);
      expectErrorEnvelope(
        await local.request('GET', '/api/product/1/nonsense/x', { token: localToken }),
        409,
      );
      const ws = await local.app.workspaces.create(local.app.ownerContext(), { name: 'Late' });
      const opened = await local.request('POST', '/api/workspace/open', {
        token: localToken,
        body: { workspaceId: ws.id },
      });
      expect(opened.status).toBe(200);
      expectErrorEnvelope(
        await local.request('GET', '/api/product/1/nonsense/x', { token: localToken }),
        404,
      );
    } finally {
      await local.stop();
    }
  });
});

describe('a body cut short by its client', () => {
  it('answers 400 and logs it as the client’s doing, not as a database outage', async () => {
    const server = await withoutWorkspace();
    const logged: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const app = await buildHttpApp(server.app.httpDeps(), { logger: { level: 'info', stream } });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address() as { port: number };
      const answer = await rawExchange(
        `http://127.0.0.1:${address.port}`,
        'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"username":"admin"',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('MALFORMED_REQUEST');
      await expect.poll(() => logged.join('')).toContain('ended the connection before its body was complete');
      expect(logged.join('')).not.toMatch(/database/i);
    } finally {
      await app.close();
    }
  });
});

describe('500 for anything unexpected', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await withoutWorkspace();
  });

  it('hides the message from the client, logs it, and still sends the envelope with CORS', async () => {
    const logged: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    const app = await buildHttpApp(server.app.httpDeps(), { logger: { level: 'error', stream } });
    app.get('/api/test-boom', { config: { public: true } }, async () => {
      throw new Error('secret detail: database password hunter2');
    });
    app.get('/test-boom-sync', { config: { public: true } }, () => {
      throw new TypeError('undefined is not a function at secretModule.ts:42');
    });
    app.get('/api/test-domain-error', { config: { public: true } }, async () => {
      throw new NotFoundError('Product 42 not found', 'PRODUCT_NOT_FOUND');
    });
    await app.ready();
    try {
      for (const url of ['/api/test-boom', '/test-boom-sync']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(500);
        expect(res.headers['content-type']).toBe(JSON_TYPE);
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.json()).toEqual({ success: false, error: 'Internal server error', code: 'INTERNAL' });
        expect(res.body).not.toMatch(/secret|hunter2|TypeError|stack/);
      }
      expect(logged.join('')).toMatch(/hunter2/);
      // Domain errors pass their message through with their status.
      const notFound = await app.inject({ method: 'GET', url: '/api/test-domain-error' });
      expect(notFound.statusCode).toBe(404);
      expect(notFound.json()).toEqual({
        success: false,
        error: 'Product 42 not found',
        code: 'PRODUCT_NOT_FOUND',
      });
    } finally {
      await app.close();
    }
  });
});
