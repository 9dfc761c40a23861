import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/**
 * JSON bodies must be UTF-8 (RFC 8259): bytes that are not are refused, never read as U+FFFD,
 * which made `CT\xff10` and `CT\xfe10` one supplierPid. REST, the bulk upsert and /mcp alike.
 */

const file = serverPerFile();

/** A JSON body whose string value holds `bytes` as they are, between ASCII text. */
const bodyWith = (prefix: string, bytes: readonly number[], suffix = '"}') =>
  Buffer.concat([Buffer.from(prefix), Buffer.from(bytes), Buffer.from(suffix)]);

const NOT_UTF8 = [
  ['a stray continuation byte', [0xff]],
  ['another byte that is never UTF-8', [0xfe]],
  ['an overlong encoding of "/"', [0xc0, 0xaf]],
  ['half of a surrogate pair, encoded', [0xed, 0xa0, 0x80]],
  ['a sequence cut short', [0xe2, 0x82]],
] as const;

const post = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
  file.server.request('POST', path, {
    token: file.token,
    rawBody: body,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe('REST', () => {
  it.each(NOT_UTF8)('refuses %s in a JSON body with 400 INVALID_JSON, storing nothing', async (_, bytes) => {
    const res = await post('/api/product', bodyWith('{"supplierPid":"CT', [...bytes, 0x31, 0x30]));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'Request body is not valid UTF-8',
      code: 'INVALID_JSON',
    });
    const bulk = await post('/api/product/bulk', bodyWith('[{"supplierPid":"BU', bytes, '"}]'));
    expect(bulk.status, bulk.text).toBe(400);
    expect(bulk.body.error).toBe('Request body is not valid UTF-8');
    const listed = await file.server.request<unknown[]>('GET', '/api/product', { token: file.token });
    expect(listed.body.data).toEqual([]);
  });

  it('says the same for an NDJSON bulk body', async () => {
    const res = await post('/api/product/bulk', bodyWith('{"supplierPid":"ND', [0xff], '"}\n'), {
      'content-type': 'application/x-ndjson',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'Request body is not valid UTF-8',
      code: 'INVALID_JSON',
    });
  });

  it('stores valid UTF-8 as sent, U+FFFD itself included', async () => {
    const supplierPid = 'Ä-😀-\ufffd';
    const res = await post('/api/product', Buffer.from(JSON.stringify({ supplierPid })));
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ supplierPid });
    const del = await file.server.request('DELETE', `/api/product/${(res.body.data as { id: number }).id}`, {
      token: file.token,
    });
    expect(del.status).toBe(200);
  });
});

describe('MCP over HTTP', () => {
  /** A 2025-era tools/call of create_product, its supplierPid holding `bytes` as they are. */
  const createCall = (id: number, bytes: readonly number[]) =>
    fetch(`${file.server.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${file.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: bodyWith(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"create_product","arguments":{"supplierPid":"MC`,
        bytes,
        '"}}}',
      ),
    });

  it('answers a body that is not UTF-8 as a JSON-RPC parse error (-32700), also for a learnt shape', async () => {
    // A valid call first: the fast path learns its shape, and must not serve the next one either.
    const valid = await createCall(1, [0x31]);
    expect(valid.status, await valid.text()).toBe(200);
    for (const [, bytes] of NOT_UTF8) {
      const res = await createCall(2, [...bytes]);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: Request body is not valid UTF-8' },
        id: null,
      });
    }
    const listed = await file.server.request<{ supplierPid: string }[]>('GET', '/api/product', {
      token: file.token,
    });
    expect(listed.body.data!.map((p) => p.supplierPid)).toEqual(['MC1']);
  });
});
