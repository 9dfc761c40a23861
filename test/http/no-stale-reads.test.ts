import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, connectStdio, ok as toolOk } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';

interface Product {
  id: number;
  name: string;
  variantCount: number;
}
interface Sheet {
  product: Product;
  longTexts: { lang: string; value: string }[];
}

/**
 * The hot read paths keep nothing that a write can make stale: the token and open workspace are
 * taken without a query while the data folder's database is unchanged, GET by id sends JSON the
 * database wrote, a conditional GET compares revisions, MCP over HTTP answers by its fast path,
 * lists are read on SQLite's read-only connection by statements prepared once.
 * Another process writes (`pim mcp` over stdio, the way an agent beside the application does);
 * each of those reads, in the very next request, must show the write. And the other way round.
 */
describe('no stale read after another process wrote', () => {
  let server: TestServer;
  let token: string;
  let agent: Client;
  let http: Client;

  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
    agent = await connectStdio(server.dataDir, ['--user', 'admin'], { PIM_PASSWORD: ADMIN_PASSWORD });
    http = await connectHttp(server.baseUrl, token);
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await http?.close();
    await server?.stop();
  });

  it('shows every acknowledged write in the next read, through REST, its 304, lists and MCP over HTTP, 25 rounds', async () => {
    const created = await toolOk<Sheet>(agent, 'create_product', { supplierPid: 'STALE-1', name: 'Runde 0' });
    const id = created.product.id;
    let previous = (await server.request('GET', `/api/product/${id}`, { token })).headers.get('etag')!;
    const fastBefore = server.app.mcpFastPath.answered;
    for (let round = 1; round <= 25; round++) {
      const name = `Runde ${round}`;
      await toolOk(agent, 'update_product', { id, name });

      const read = await server.request<Product>('GET', `/api/product/${id}`, { token });
      expect(read.body.data!.name, `round ${round}`).toBe(name);
      const conditional = await server.request<Product>('GET', `/api/product/${id}`, {
        token,
        headers: { 'if-none-match': previous },
      });
      expect(conditional.status, `round ${round}`).toBe(200);
      expect(conditional.body.data!.name).toBe(name);
      previous = read.headers.get('etag')!;
      expect(conditional.headers.get('etag')).toBe(previous);
      const sheet = await toolOk<Sheet>(http, 'get_product', { id });
      expect(sheet.product.name, `round ${round}`).toBe(name);
      // The lists, and a variant the other process added (its main product's stored count).
      await toolOk(agent, 'create_product', { supplierPid: `STALE-1-V${round}`, masterProductId: id });
      const listed = (product: Product) => [product.name, product.variantCount];
      for (const query of ['limit=10', 'limit=1', 'all=true']) {
        const list = await server.request<Product[]>('GET', `/api/product?supplierPid=STALE-1&${query}`, {
          token,
        });
        expect(list.body.data!.map(listed), `round ${round}, ${query}`).toEqual([[name, round]]);
      }
      const found = await toolOk<{ items: Product[] }>(http, 'search_products', { q: 'STALE-1', limit: 1 });
      expect(found.items.map(listed), `round ${round}`).toEqual([[name, round]]);

      // The other way: REST writes, the other process reads at once.
      const value = `Langtext ${round}`;
      const put = await server.request('PUT', `/api/product/${id}/texts/long/deu`, {
        token,
        body: { value },
      });
      expect(put.status).toBe(200);
      const seen = await toolOk<Sheet>(agent, 'get_product', { id });
      expect(seen.longTexts.find((t) => t.lang === 'deu')?.value, `round ${round}`).toBe(value);
    }
    // MCP over HTTP took its fast path for (nearly) every round: what is tested is that path.
    expect(server.app.mcpFastPath.answered - fastBefore).toBeGreaterThanOrEqual(24);
  }, 120_000);
});
