import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { startServer, type StartOptions, type TestServer } from '../helpers/server.js';

/**
 * The tools/call fast path (src/mcp/tool-call-fast-path.ts) must answer exactly as the SDK does.
 * Two servers built the same way, one with the fast path and one without, get the same random
 * requests in the same order (reads, writes, errors, malformed envelopes and headers); every
 * answer must agree in status, content type and bytes. The clock stands still, so both create the
 * same ids and timestamps.
 */

const VERSION = '2026-07-28';

interface Target {
  server: TestServer;
  tokens: Record<'admin' | 'viewer', string>;
}

interface RawCall {
  user: 'admin' | 'viewer';
  /** The MCP-Protocol-Version header: the current revision, or a 2025-era one. */
  version: string;
  /** Without Mcp-Method and Mcp-Name, as 2025-era clients send. */
  bare: boolean;
  id: number | string;
  name: string;
  args: unknown;
  meta: Record<string, unknown> | undefined;
  headers: Record<string, string>;
  omit: readonly ('mcp-method' | 'mcp-name' | 'mcp-protocol-version')[];
}

async function send(target: Target, call: RawCall) {
  const params: Record<string, unknown> = { name: call.name, arguments: call.args };
  if (call.meta !== undefined) params._meta = call.meta;
  const headers: Record<string, string> = {
    authorization: `Bearer ${target.tokens[call.user]}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-method': 'tools/call',
    'mcp-name': call.name,
    'mcp-protocol-version': call.version,
    ...call.headers,
  };
  for (const name of call.omit) delete headers[name];
  if (call.bare) {
    delete headers['mcp-method'];
    delete headers['mcp-name'];
  }
  const res = await fetch(`${target.server.baseUrl}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: call.id, method: 'tools/call', params }),
  });
  // Workspace paths name each server's own temporary folder.
  const text = (await res.text()).replace(/pim-test-[A-Za-z0-9]+/g, 'pim-test-X');
  const type = res.headers.get('content-type');
  // 2025-era requests (no envelope) are answered as one server-sent event.
  const json = type?.startsWith('text/event-stream') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
  return {
    status: res.status,
    type,
    cacheControl: res.headers.get('cache-control'),
    // The framing of an event stream: its lines without the data.
    frame: type?.startsWith('text/event-stream') ? text.replace(/^data: .*$/gm, 'data: …') : null,
    body: json === '' ? null : (JSON.parse(json) as unknown),
    // Byte for byte, beside the JSON above (which shows a difference more readably).
    text,
  };
}

async function prepare(fastPath: boolean, options: StartOptions = {}): Promise<Target> {
  const server = await startServer({ ...options, mcpFastPath: fastPath });
  await server.addUser('viewer', 'VIEWER');
  const admin = await server.login();
  const viewer = await server.login('viewer', 'viewer-password');
  const group = await server.request<{ id: number }>('POST', '/api/group', {
    token: admin,
    body: { name: 'Schellen' },
  });
  for (let i = 1; i <= 3; i++) {
    const product = await server.request<{ id: number }>('POST', '/api/product', {
      token: admin,
      body: { supplierPid: `FP-${i}`, name: `Rohrschelle ${i} "ü" 🧰` },
    });
    const id = product.body.data!.id;
    await server.request('PUT', `/api/product/${id}/texts/long/eng`, {
      token: admin,
      body: { value: 'Long\ntext' },
    });
    await server.request('PUT', `/api/product/${id}/features/EF000008`, {
      token: admin,
      body: { funit: 'MMT', values: [{ lang: 'deu', value: `${i}0` }] },
    });
    await server.request('POST', `/api/group/${group.body.data!.id}/products`, {
      token: admin,
      body: { productIds: [id] },
    });
  }
  await server.request('POST', '/api/product/1/variants', { token: admin, body: { supplierPid: 'FP-1-V' } });
  return { server, tokens: { admin, viewer } };
}

const goodMeta = fc.constantFrom<Record<string, unknown>>(
  {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  },
  {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true } },
  },
);
const badMeta = fc.constantFrom<Record<string, unknown> | undefined>(
  undefined,
  { 'io.modelcontextprotocol/protocolVersion': VERSION },
  {
    'io.modelcontextprotocol/protocolVersion': '2025-11-25',
    'io.modelcontextprotocol/clientCapabilities': {},
  },
  {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': { roots: 'yes' },
  },
);

const toolCalls = fc.oneof(
  fc.record({
    name: fc.constant('get_product'),
    args: fc.record({ id: fc.constantFrom(1, 2, 3, 4, 99, 0, 'x') }),
  }),
  fc.record({
    name: fc.constant('get_product'),
    args: fc.record({ id: fc.constantFrom(1, 4), lang: fc.constantFrom('eng', 'de', 'xx1') }),
  }),
  fc.record({
    name: fc.constant('search_products'),
    args: fc.record(
      { q: fc.constantFrom('schelle', 'FP-2', ''), limit: fc.constantFrom(1, 2, 501) },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    name: fc.constant('get_group_tree'),
    args: fc.record({ depth: fc.constantFrom(0, 1, -1) }, { requiredKeys: [] }),
  }),
  fc.record({ name: fc.constant('list_workspaces'), args: fc.constant({}) }),
  fc.record({
    name: fc.constant('set_texts'),
    args: fc.record({
      id: fc.constantFrom(1, 2, 99),
      kind: fc.constantFrom('short', 'long', 'middle'),
      texts: fc.constantFrom([{ lang: 'fra', value: 'Collier' }], [{ lang: 'eng', value: '' }], []),
    }),
  }),
  fc.record({ name: fc.constant('delete_product'), args: fc.record({ id: fc.constantFrom(3, 98) }) }),
  fc.record({
    name: fc.constantFrom('no_such_tool', 'get_product'),
    args: fc.constantFrom<unknown>([], 'x', { id: 1, extra: true }),
  }),
);

/** The current revision with its envelope, or a 2025-era one, mostly without (as such clients send). */
const eraAndMeta = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      version: fc.constant(VERSION),
      meta: fc.oneof({ weight: 6, arbitrary: goodMeta }, { weight: 1, arbitrary: badMeta }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      version: fc.constantFrom('2025-11-25', '2025-06-18', '1999-01-01'),
      meta: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant({ progressToken: 7 }) },
        { weight: 1, arbitrary: badMeta },
      ),
    }),
  },
);

const rawCalls: fc.Arbitrary<RawCall> = fc
  .record({
    user: fc.constantFrom('admin' as const, 'admin' as const, 'viewer' as const),
    id: fc.oneof(fc.integer({ min: -5, max: 1_000 }), fc.constantFrom('req-1', '')),
    call: toolCalls,
    era: eraAndMeta,
    bare: fc.boolean(),
    headers: fc.oneof(
      { weight: 8, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Record<string, string>>(
          { 'mcp-name': 'get_group_tree' },
          { 'mcp-method': 'tools/list' },
          { 'mcp-protocol-version': '2025-11-25' },
          { 'mcp-session-id': 'abc' },
          { accept: 'application/json' },
        ),
      },
    ),
    omit: fc.oneof(
      { weight: 8, arbitrary: fc.constant([]) },
      {
        weight: 1,
        arbitrary: fc.subarray(['mcp-method', 'mcp-name', 'mcp-protocol-version'] as const, { minLength: 1 }),
      },
    ),
  })
  .map(({ call, era, ...rest }) => ({ ...rest, ...era, name: call.name, args: call.args }));

describe('the tools/call fast path over HTTP', () => {
  let fast: Target;
  let sdk: Target;

  beforeAll(async () => {
    fast = await prepare(true);
    sdk = await prepare(false);
  }, 60_000);
  afterAll(async () => {
    await fast?.server.stop();
    await sdk?.server.stop();
  });

  it('answers every request exactly as the SDK does, and takes most of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rawCalls, { minLength: 1, maxLength: 12 }), async (calls) => {
        for (const call of calls) {
          const viaFast = await send(fast, call);
          const viaSdk = await send(sdk, call);
          expect(viaFast, JSON.stringify(call)).toEqual(viaSdk);
        }
      }),
      { numRuns: 60 },
    );
    // The fast path was taken (the first request of each shape always goes to the SDK).
    expect(fast.server.app.mcpFastPath.answered).toBeGreaterThan(60);
    expect(sdk.server.app.mcpFastPath.answered).toBe(0);
  }, 120_000);

  it('takes a 2025-era call once the SDK answered one of its shape, and answers it as the SDK did', async () => {
    const call: RawCall = {
      user: 'admin',
      version: '2025-11-25',
      bare: true,
      id: 41,
      name: 'get_product',
      args: { id: 2 },
      meta: undefined,
      headers: {},
      omit: [],
    };
    const first = await send(fast, call);
    const before = fast.server.app.mcpFastPath.answered;
    const second = await send(fast, { ...call, id: 42 });
    expect(fast.server.app.mcpFastPath.answered).toBe(before + 1);
    expect(first.type).toBe('text/event-stream');
    expect(second).toEqual({
      ...first,
      body: { ...(first.body as object), id: 42 },
      text: first.text.replace(/"id":41}(?=\n*$)/, '"id":42}'),
    });
    expect(second.body).toMatchObject({ result: { structuredContent: { product: { id: 2 } } } });
  });
});

/**
 * The fast path writes the SDK's wire format by hand. A later SDK may frame an answer otherwise;
 * here the SDK's answers to get_product are rewritten (a space after "jsonrpc":, the same JSON in
 * other bytes) as such a release might write them, list_workspaces' are left alone.
 */
describe('the fast path when the SDK answers a shape otherwise', () => {
  const changed = (body: string, headers: IncomingHttpHeaders) =>
    headers['mcp-name'] === 'get_product' ? body.replace('"jsonrpc":"2.0"', '"jsonrpc": "2.0"') : body;
  let target: Target;

  beforeAll(async () => {
    target = await prepare(true, { rewriteMcpSdkAnswer: changed });
  }, 60_000);
  afterAll(async () => target?.server.stop());

  const call = (version: string, name: string, args: unknown, id: number): RawCall => ({
    user: 'admin',
    version,
    bare: false,
    id,
    name,
    args,
    meta:
      version === VERSION
        ? {
            'io.modelcontextprotocol/protocolVersion': VERSION,
            'io.modelcontextprotocol/clientCapabilities': {},
          }
        : undefined,
    headers: {},
    omit: [],
  });

  it.each([VERSION, '2025-11-25'])(
    'stays off for that shape (%s), whose answers stay the SDK’s',
    async (version) => {
      const switched = target.server.app.mcpFastPath;
      const before = { answered: switched.answered, refused: switched.refused };
      const sheets = [];
      const lists = [];
      for (let id = 1; id <= 4; id++) {
        sheets.push(await send(target, call(version, 'get_product', { id: 2 }, id)));
        lists.push(await send(target, call(version, 'list_workspaces', {}, id)));
      }
      // list_workspaces: learnt from the first answer, the next three taken by the fast path.
      expect(switched.answered - before.answered).toBe(3);
      expect(lists.map((answer) => answer.text.includes('"jsonrpc":"2.0"'))).toEqual([
        true,
        true,
        true,
        true,
      ]);
      // get_product: the SDK's first answer differed, so the shape stayed with the SDK; every
      // answer is its (rewritten) one, the same bytes but for the id.
      expect(switched.refused - before.refused).toBe(1);
      expect(sheets[0]!.status).toBe(200);
      expect(sheets[0]!.text).toContain('"jsonrpc": "2.0"');
      expect(sheets[0]!.body).toMatchObject({ result: { structuredContent: { product: { id: 2 } } } });
      for (const [index, sheet] of sheets.entries()) {
        expect(sheet.text).toBe(sheets[0]!.text.replace(/"id":1}(?=\n*$)/, `"id":${index + 1}}`));
      }
    },
  );
});
