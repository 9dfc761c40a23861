import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * Reads whose JSON the database writes (texts, features, variants, the MCP product sheet) must
 * be byte for byte what JSON.stringify writes, on both backends: clients compare and hash bodies,
 * and a mirror must not see a change where there is none when pim moves to PostgreSQL.
 */
let server: TestServer;
let token: string;
let client: Client;
let id: number;

const AWKWARD = 'Quote " backslash \\ slash / line\nbreak\ttab \u0001 ünïcödé € 😀 \u2028 end';

beforeAll(async () => {
  server = await startServer({ setup: 'first-run' });
  token = await server.login();
  client = await connectHttp(server.baseUrl, token);
  const all = (
    await server.request<{ id: number; variantCount: number }[]>('GET', '/api/product?all=true', { token })
  ).body.data!;
  const withFeatures = [];
  for (const p of all.filter((p) => p.variantCount > 1)) {
    const features = await server.request<unknown[]>('GET', `/api/product/${p.id}/features`, { token });
    if (features.body.data!.length > 1) withFeatures.push(p.id);
  }
  id = withFeatures[0]!;
  for (const lang of ['deu', 'eng']) {
    for (const kind of ['short', 'long']) {
      const put = await server.request('PUT', `/api/product/${id}/texts/${kind}/${lang}`, {
        token,
        body: { value: `${kind} ${lang} ${AWKWARD}` },
      });
      expect(put.status).toBe(200);
    }
  }
  const feature = await server.request('PUT', `/api/product/${id}/features/COMPACT-1`, {
    token,
    body: {
      funit: 'MMT',
      values: [
        { lang: 'deu', value: AWKWARD },
        { lang: 'eng', value: '1' },
      ],
    },
  });
  expect(feature.status).toBe(200);
  const group = await server.request<{ id: number }>('POST', '/api/group', {
    token,
    body: { name: AWKWARD },
  });
  await server.request('POST', `/api/group/${group.body.data!.id}/products`, {
    token,
    body: { productIds: [id] },
  });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('JSON written by the database', () => {
  it.each(['texts/short', 'texts/long', 'features', 'variants'])(
    'GET /api/product/{id}/%s is compact',
    async (part) => {
      const res = await server.request<unknown[]>('GET', `/api/product/${id}/${part}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data!.length).toBeGreaterThan(1);
      expect(res.text).toBe(JSON.stringify(JSON.parse(res.text)));
    },
  );

  it.each(['', '?all=true', '?limit=3', '?all=true&lang=eng'])(
    'GET /api/product%s is compact',
    async (query) => {
      const res = await server.request('GET', `/api/product${query}`, { token });
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(JSON.parse(res.text)));
    },
  );

  it('GET /api/product/{id} is compact', async () => {
    const res = await server.request('GET', `/api/product/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(JSON.parse(res.text)));
  });

  it('the lists carry the awkward characters unchanged', async () => {
    const texts = await server.request<{ value: string }[]>('GET', `/api/product/${id}/texts/long`, {
      token,
    });
    expect(texts.body.data!.map((t) => t.value)).toEqual([`long deu ${AWKWARD}`, `long eng ${AWKWARD}`]);
  });

  it("MCP get_product's text is compact and its group and variants are there", async () => {
    const outcome = await call<{ group: { name: string }; variants: unknown[] }>(client, 'get_product', {
      id,
    });
    expect(outcome.isError).toBe(false);
    expect(outcome.data.group.name).toBe(AWKWARD);
    expect(outcome.data.variants.length).toBeGreaterThan(1);
    expect(outcome.text).toBe(JSON.stringify(JSON.parse(outcome.text)));
    expect(JSON.parse(outcome.text)).toEqual(outcome.data);
  });
});
