import { ProtocolError } from '@modelcontextprotocol/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, connectHttp, ok } from '../helpers/mcp.js';
import { lazyServerPerFile } from '../helpers/file-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * One application for the file, a token of its own per test (one test logs it out): each test reads
 * only what it made. Moving the clock on ends only tokens the tests before made; the monitor's whole
 * record takes an application of its own.
 */
const shared = lazyServerPerFile();
let server: TestServer;
let token: string;

beforeEach(async () => {
  server = await shared();
  token = await server.login();
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** One raw JSON-RPC POST to /mcp, as a 2025-era client sends it. */
async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  // The stateless 2025-era answer is one server-sent event; errors before it are plain JSON.
  const data = res.headers.get('content-type')?.startsWith('text/event-stream')
    ? (/^data: (.*)$/m.exec(text)?.[1] ?? '')
    : text;
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: data ? (JSON.parse(data) as Record<string, unknown>) : {},
  };
}

describe('authentication with the REST login tokens', () => {
  it('refuses a missing, malformed, unknown, logged-out or expired token with 401 and WWW-Authenticate', async () => {
    const other = await server.login();
    const expiring = await server.login();
    await server.request('POST', '/api/auth/logout', { token: other });
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, 'TOKEN_MISSING'],
      ['malformed', { authorization: 'Bearer not-a-token' }, 'TOKEN_INVALID'],
      ['unknown', { authorization: 'Bearer 0b8e1c1e-7a0d-4c5e-9a47-1f0e3b2a9c11' }, 'TOKEN_INVALID'],
      ['logged out', { authorization: `Bearer ${other}` }, 'TOKEN_INVALID'],
    ];
    for (const [what, headers, code] of cases) {
      const res = await post(INITIALIZE, headers);
      expect(res.status, what).toBe(401);
      expect(res.headers.get('www-authenticate'), what).toMatch(/^Bearer realm="pim"/);
      expect(res.json, what).toMatchObject({ success: false, code });
    }
    expect((await post(INITIALIZE, { authorization: `Bearer ${expiring}` })).status).toBe(200);
    server.clock.advance(24 * 60 * 60 * 1000 + 1);
    const expired = await post(INITIALIZE, { authorization: `Bearer ${expiring}` });
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ code: 'TOKEN_EXPIRED' });
    await expect(connectHttp(server.baseUrl, expiring)).rejects.toThrow();
  });

  it('stops serving a token from the moment its logout returned', async () => {
    const client = await connectHttp(server.baseUrl, token, { era: 'legacy' });
    await ok(client, 'list_workspaces');
    expect((await server.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    await expect(client.callTool({ name: 'list_workspaces', arguments: {} })).rejects.toThrow(
      /TOKEN_INVALID/,
    );
    await client.close();
  });
});

describe('Origin (DNS-rebinding protection)', () => {
  it('refuses a foreign Origin with 403 before looking at the token', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example:8765', 'null']) {
      for (const headers of [{}, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
        const res = await post(INITIALIZE, { origin, ...headers });
        expect(res.status, origin).toBe(403);
        expect(res.json, origin).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      }
    }
  });

  it('serves the own origin, loopback origins and clients that send none', async () => {
    for (const origin of [server.baseUrl, 'http://localhost:5173', 'http://[::1]:3000', undefined]) {
      const headers: Record<string, string> = origin ? { origin } : {};
      const client = await connectHttp(server.baseUrl, token, { headers });
      expect(await ok(client, 'list_workspaces')).toMatchObject({ workspaces: [{ name: 'Test' }] });
      await client.close();
    }
  });
});

describe('protocol', () => {
  it('answers an unknown tool and arguments that are not an object with JSON-RPC errors', async () => {
    const client = await connectHttp(server.baseUrl, token);
    const unknown = await client.callTool({ name: 'drop_database', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(-32602);
    expect((unknown as ProtocolError).message).toContain('Tool drop_database not found');
    await client.close();

    const auth = { authorization: `Bearer ${token}` };
    const notObject = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_product', arguments: 'id=1' } },
      auth,
    );
    expect(notObject.json).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32602 } });
    const garbage = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
      body: '{"jsonrpc": "2.0", "id": ',
    });
    // Bodies it cannot read are answered as the SDK answers them: JSON-RPC errors without an id.
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: Request body is not valid JSON' },
      id: null,
    });
    const poisoned = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
      body: '{"jsonrpc":"2.0","id":3,"method":"tools/list","__proto__":{}}',
    });
    expect(poisoned.status).toBe(400);
    expect(await poisoned.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
    const wrongType = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...auth },
      body: 'hello',
    });
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    // A batch (MCP has none since 2025-06-18) is refused whole: none of its calls runs.
    const batch = await post(
      [1, 2].map((id) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'create_product', arguments: { supplierPid: `BATCH-${id}` } },
      })),
      auth,
    );
    expect(batch.status).toBe(400);
    expect(batch.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
    expect(String((batch.json.error as { message: string }).message)).toContain('not a batch');
    const listed = await server.request<unknown[]>('GET', '/api/product?all=true&q=BATCH-', { token });
    expect(listed.body.data).toEqual([]);
    // Methods other than POST: the same 405 with Allow: POST for each (no event stream, no session).
    const answers = await Promise.all(
      ['GET', 'DELETE', 'PUT', 'PATCH'].map(async (method) => {
        const res = await fetch(`${server.baseUrl}/mcp`, {
          method,
          headers: { accept: 'application/json, text/event-stream', ...auth },
        });
        return [res.status, res.headers.get('allow'), await res.json()];
      }),
    );
    expect(answers[0]).toEqual([405, 'POST', { jsonrpc: '2.0', error: expect.any(Object), id: null }]);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // The server is still fine.
    const again = await connectHttp(server.baseUrl, token);
    await ok(again, 'list_workspaces');
    await again.close();
  });

  it('is not part of the REST description', async () => {
    const openapi = await server.request<never>('GET', '/api/openapi.json');
    expect(JSON.stringify(openapi.body)).not.toContain('/mcp');
  });
});

describe('rights', () => {
  it('refuses a tool the role may not call as REST refuses it (403), changing nothing', async () => {
    await server.addUser('vi', 'VIEWER');
    const viewer = await connectHttp(server.baseUrl, await server.login('vi', 'vi-password'));
    const outcome = await call(viewer, 'create_product', { supplierPid: 'NOPE' });
    expect(outcome.isError).toBe(true);
    expect(outcome.data).toEqual({
      error: "Role VIEWER lacks the right 'Bearbeiten' this operation needs",
      code: 'FORBIDDEN',
      status: 403,
    });
    expect((await call(viewer, 'open_workspace', { workspaceId: 1 })).data).toMatchObject({ status: 403 });
    expect(await ok(viewer, 'search_products', { supplierPid: 'NOPE' })).toEqual({
      items: [],
      nextCursor: null,
    });
    const listed = await server.request<unknown[]>('GET', '/api/product?supplierPid=NOPE', { token });
    expect(listed.body.data).toEqual([]);
    await viewer.close();
  });
});

describe('one catalogue for REST and MCP', () => {
  it('shows a change made through either interface through the other in the very next request', async () => {
    const client = await connectHttp(server.baseUrl, token);
    const created = await server.request<{ id: number }>('POST', '/api/product', {
      token,
      body: { supplierPid: 'R-1', name: 'Von REST' },
    });
    const id = created.body.data!.id;
    expect(await ok(client, 'get_product', { id })).toMatchObject({ product: { name: 'Von REST' } });
    await ok(client, 'update_product', { id, name: 'Von MCP' });
    expect(
      (await server.request<{ name: string }>('GET', `/api/product/${id}`, { token })).body.data!.name,
    ).toBe('Von MCP');
    await server.request('DELETE', `/api/product/${id}`, { token });
    expect((await call(client, 'get_product', { id })).data).toMatchObject({ status: 404 });
    await client.close();
  });
});

describe('request monitor', () => {
  it('records every tool call as method MCP with the status REST would answer, beside POST /mcp', async () => {
    // Its own application: it reads the monitor's whole record.
    const server = await startServer();
    const token = await server.login();
    try {
      const client = await connectHttp(server.baseUrl, token);
      await ok(client, 'create_product', { supplierPid: 'MON' });
      await call(client, 'get_product', { id: 999 });
      await call(client, 'search_products', { limit: 0 });
      await client.close();
      const entries = server.app.monitor.latest();
      const mcp = entries.filter((e) => e.method === 'MCP');
      expect(mcp.map((e) => [e.path, e.status])).toEqual([
        ['create_product', 201],
        ['get_product', 404],
        ['search_products', 400],
      ]);
      for (const entry of mcp) {
        expect(entry.durationMs).toBeGreaterThanOrEqual(0);
        expect(Date.parse(entry.timestamp)).not.toBeNaN();
      }
      expect(entries.filter((e) => e.method === 'POST' && e.path === '/mcp').length).toBeGreaterThanOrEqual(
        3,
      );
    } finally {
      await server.stop();
    }
  });
});
