import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let client: Client;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login();
  for (let i = 1; i <= 120; i++) {
    await server.request('POST', '/api/product', {
      token,
      body: { supplierPid: `R-${i}`, name: `Produkt ${i}` },
    });
  }
  client = await connectHttp(server.baseUrl, token);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

describe('products as resources', () => {
  it('offers the template pim://product/{id}', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'pim://product/{id}', mimeType: 'application/json' }),
    ]);
  });

  it('pages through every product with resources/list', async () => {
    const uris: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages++) {
      const page = await client.listResources(cursor ? { cursor } : {});
      uris.push(...page.resources.map((r) => r.uri));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(uris).toHaveLength(120);
    expect(new Set(uris).size).toBe(120);
    expect(uris[0]).toMatch(/^pim:\/\/product\/\d+$/);
  });

  it('reads a product sheet, and answers an unknown product with resource-not-found', async () => {
    const [first] = (await client.listResources()).resources;
    const read = await client.readResource({ uri: first!.uri });
    const sheet = JSON.parse((read.contents[0] as { text: string }).text) as {
      product: { supplierPid: string };
    };
    expect(sheet.product.supplierPid).toBe('R-1');
    expect(sheet).toHaveProperty('shortTexts');
    await expect(client.readResource({ uri: 'pim://product/999999' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'pim://product/abc' })).rejects.toThrow(/not found/i);
  });
});
