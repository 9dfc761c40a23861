import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

type Operation = {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  security?: unknown[];
};
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function jsonSchema(entry: { content?: Record<string, { schema?: Record<string, unknown> }> } | undefined) {
  return entry?.content?.['application/json']?.schema;
}

describe('the OpenAPI description and the reference page', () => {
  let server: TestServer;
  let doc: OpenApi;
  beforeAll(async () => {
    server = await startServer({ setup: 'no-workspace' });
    const res = await server.request<never>('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as unknown as OpenApi;
  });
  afterAll(() => server.stop());

  it('is served without a token as OpenAPI 3.1 JSON', async () => {
    const res = await server.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('describes login with its request body and its errors, open to everybody', () => {
    const login = doc.paths['/api/auth/login']!.post!;
    expect(jsonSchema(login.requestBody)).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['username', 'password']),
      properties: { username: { type: 'string' }, password: { type: 'string' } },
    });
    expect(jsonSchema(login.responses['200'])).toMatchObject({
      properties: { success: expect.any(Object), data: { properties: { token: expect.any(Object) } } },
    });
    for (const status of ['400', '401', '429']) {
      expect(jsonSchema(login.responses[status])).toMatchObject({
        properties: { success: expect.any(Object), error: { type: 'string' } },
      });
    }
    expect(login.security).toEqual([]);
  });

  it('says what a machine of the one-login rule is: the pim instance, not the client address', async () => {
    const description = (doc as unknown as { info: { description: string } }).info.description.replace(
      /\s+/g,
      ' ',
    );
    expect(description).toContain('A machine is a pim instance');
    expect(description).toContain('logins on this instance are allowed from any client address');
    expect(description).not.toContain('(client address)');
    // The failed-login limits are each instance's own (team mode): said where they are defined.
    expect(description).toContain('Each pim instance counts the failures it saw');
  });

  it('describes logout and the workspace endpoints with bodies, results and error statuses', () => {
    const logout = doc.paths['/api/auth/logout']!.post!;
    expect(jsonSchema(logout.responses['200'])).toMatchObject({
      properties: { success: expect.any(Object) },
    });
    // The spec's logout has no request body: none may be required.
    expect(logout.requestBody?.required ?? false).toBe(false);
    expect(Object.keys(logout.responses)).toContain('401');

    const list = doc.paths['/api/workspace']!.get!;
    expect(jsonSchema(list.responses['200'])).toMatchObject({
      properties: {
        data: {
          type: 'array',
          items: {
            properties: {
              id: expect.any(Object),
              name: expect.any(Object),
              rootpath: expect.any(Object),
              active: expect.any(Object),
            },
          },
        },
      },
    });
    expect(Object.keys(list.responses)).toContain('401');

    const open = doc.paths['/api/workspace/open']!.post!;
    expect(jsonSchema(open.requestBody)).toMatchObject({
      properties: { workspaceId: { type: 'integer' }, workspaceName: { type: 'string' } },
    });
    expect(Object.keys(open.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    for (const status of ['400', '401', '404']) {
      expect(jsonSchema(open.responses[status])).toMatchObject({
        required: expect.arrayContaining(['success', 'error']),
      });
    }
  });

  it('gives every route a 2xx response schema and, but for login, a 401 response', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(4);
    const problems: string[] = [];
    for (const { route, op } of operations) {
      const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
      // A success may be another media type than JSON (GET /api/export answers XML), but has a schema.
      const anySchema = (s: string) =>
        Object.values(op.responses[s]?.content ?? {}).some((media) => media.schema !== undefined);
      if (!success.some(anySchema)) problems.push(`${route}: no 2xx schema`);
      if (route !== 'POST /api/auth/login' && !jsonSchema(op.responses['401']))
        problems.push(`${route}: no 401`);
      if (!route.split(' ')[1]!.startsWith('/api/')) problems.push(`${route}: not under /api`);
    }
    expect(problems).toEqual([]);
  });

  it('serves the reference page and every asset it references without a token, nothing from a CDN', async () => {
    const page = await server.request('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const urls = [...page.text.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(urls.some((u) => u.endsWith('.js'))).toBe(true);
    expect(urls.some((u) => u.endsWith('.css'))).toBe(true);
    expect(page.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    for (const url of urls) {
      const absolute = new URL(url, `${server.baseUrl}/api/docs/`);
      expect(absolute.origin).toBe(server.baseUrl);
      const asset = await server.request('GET', absolute.pathname);
      expect(asset.status, url).toBe(200);
      expect(asset.text.length).toBeGreaterThan(0);
    }
    // The page loads the description from the same server, also without a token.
    // An asset it does not have: 404 (its route allows GET: no 405 naming GET as allowed).
    for (const method of ['GET', 'HEAD'] as const) {
      const missing = await server.request(method, '/api/docs/static/no-such-asset.js');
      expect(missing.status, method).toBe(404);
      expect(missing.headers.get('allow')).toBeNull();
    }
    expect((await server.request('GET', '/api/docs/static/no-such-asset.js')).body).toMatchObject({
      success: false,
      code: 'ROUTE_NOT_FOUND',
    });
    const json = await server.request('GET', '/api/docs/json');
    expect(json.status).toBe(200);
    expect((json.body as unknown as OpenApi).openapi).toMatch(/^3\.1\./);
  });

  it('keeps the reference page on this server: its security policy neither upgrades to https nor allows other hosts', async () => {
    const csp = (await server.request('GET', '/api/docs')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
    expect(csp).not.toMatch(/https:|http:|\*/);
  });

  it('needs a token for everything else under /api/docs and /api/openapi.json that is not a read', async () => {
    expect((await server.request('POST', '/api/openapi.json', { body: {} })).status).toBe(401);
    expect((await server.request('GET', '/api/docsx')).status).toBe(401);
  });
});
