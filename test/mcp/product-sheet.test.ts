import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHEET_FIELDS } from '../../src/db/catalogue/product-fields.js';
import { connectHttp, ok } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';

/**
 * The product sheet is written by SQLite in one statement (product-sheet.repository.ts); it
 * must say exactly what REST's single reads say, with their rules for names and orders.
 */
let server: TestServer;
let token: string;
let client: Client;

beforeAll(async () => {
  server = await startServer({ setup: 'first-run' });
  token = await server.login();
  client = await connectHttp(server.baseUrl, token);
  // Beside the demo catalogue: a product whose names exist only in languages other than the default.
  const odd = await server.request<{ id: number }>('POST', '/api/product', {
    token,
    body: { supplierPid: 'ODD', name: 'Only French', language: 'fra' },
  });
  const id = odd.body.data!.id;
  await server.request('PUT', `/api/product/${id}/texts/short/eng`, { token, body: { value: 'English' } });
  await server.request('PUT', `/api/product/${id}/features/${encodeURIComponent('X/1 #a')}`, {
    token,
    body: { values: [{ lang: 'fra', value: '1' }] },
  });
  const group = await server.request<{ id: number }>('POST', '/api/group', {
    token,
    body: { name: 'Nur Englisch', language: 'eng' },
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

/**
 * Each group's members, read once over REST for the whole test (the test changes no group), not
 * again for every product and language.
 */
const membersOf = new Map<number, Set<number>>();
async function groupMembers(ids: number[]): Promise<Map<number, Set<number>>> {
  for (const id of ids) {
    if (membersOf.has(id)) continue;
    const res = await server.request<{ id: number }[]>('GET', `/api/group/${id}/products`, { token });
    membersOf.set(id, new Set(res.body.data!.map((m) => m.id)));
  }
  return membersOf;
}

async function viaRest(id: number, lang?: string): Promise<unknown> {
  const q = lang ? `?lang=${lang}` : '';
  const get = async <T>(path: string) => (await server.request<T>('GET', path, { token })).body.data as T;
  const product = await get<{ id: number; masterProduct: boolean }>(`/api/product/${id}${q}`);
  const variants = product.masterProduct
    ? await get<{ id: number; supplierPid: string; name: string }[]>(`/api/product/${id}/variants${q}`)
    : [];
  const groups = await get<{ id: number; groupId: string; name: string }[]>(`/api/group${q}`);
  let group: { id: number; groupId: string; name: string } | null = null;
  const members = await groupMembers(groups.map((g) => g.id));
  for (const candidate of groups) {
    if (members.get(candidate.id)!.has(id))
      group = { id: candidate.id, groupId: candidate.groupId, name: candidate.name };
  }
  // The list is JSON the database writes, as the sheet is; each single read is a DTO built in
  // JavaScript: the list must say what they say.
  const listed = await get<{ ftidref: string }[]>(`/api/product/${id}/features`);
  const features: unknown[] = [];
  for (const { ftidref } of listed) {
    features.push(await get(`/api/product/${id}/features/${encodeURIComponent(ftidref)}`));
  }
  expect(listed).toEqual(features);
  return {
    product,
    shortTexts: await get(`/api/product/${id}/texts/short`),
    longTexts: await get(`/api/product/${id}/texts/long`),
    // Made through the spec's routes: one occurrence per ftidref, none of the model's other parts.
    features: features.map((feature) => ({ ...(feature as object), details: null })),
    group,
    groups: group ? [{ ...group, catalogGroupId: null }] : [],
    ...Object.fromEntries(SHEET_FIELDS.map((f) => [f.key, null])),
    keywords: [],
    media: [],
    fragments: [],
    variants: variants.map((v) => ({ id: v.id, supplierPid: v.supplierPid, name: v.name })),
  };
}

describe('get_product', () => {
  it('says what the single REST reads say, for every product and in several languages', async () => {
    const all = (await server.request<{ id: number }[]>('GET', '/api/product?all=true', { token })).body
      .data!;
    expect(all.length).toBeGreaterThan(10);
    for (const lang of [undefined, 'eng', 'fra']) {
      for (const { id } of all) {
        const sheet = await ok(client, 'get_product', lang ? { id, lang } : { id });
        expect(sheet, `product ${id} lang ${lang}`).toEqual(await viaRest(id, lang));
      }
    }
  });
});
