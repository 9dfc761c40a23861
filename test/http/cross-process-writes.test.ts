import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { call as toolCall, connectStdio } from '../helpers/mcp.js';
import { ADMIN_PASSWORD, startServer, type TestServer } from '../helpers/server.js';

/**
 * Two processes writing one catalogue at once (`pim start` and `pim mcp` on the same data folder,
 * or two instances in team mode): a write that meets the other's lock waits its turn; none may
 * fail with 500 (SQLite refuses to upgrade a read snapshot to a write when another process
 * committed meanwhile, unless the transaction took the write lock when it began).
 */
describe('writes from two processes at once', () => {
  let server: TestServer;
  let token: string;
  let agent: Client;
  const ids: number[] = [];

  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
    agent = await connectStdio(server.dataDir, ['--user', 'admin'], { PIM_PASSWORD: ADMIN_PASSWORD });
    for (let i = 0; i < 3; i++) {
      const res = await server.request<{ id: number }>('POST', '/api/product', {
        token,
        body: { supplierPid: `XP-${i}`, name: `Produkt ${i}` },
      });
      ids.push(res.body.data!.id);
    }
  }, 60_000);
  afterAll(async () => {
    await agent?.close();
    await server?.stop();
  });

  it('lets every write through, in turn, and answers none with 500', async () => {
    const rest = async (round: number) => {
      const id = ids[round % ids.length]!;
      // A read before the write (the product must exist): the case SQLite cannot upgrade.
      const put = await server.request('PUT', `/api/product/${id}`, { token, body: { ean: `400${round}` } });
      const text = await server.request('PUT', `/api/product/${id}/texts/long/eng`, {
        token,
        body: { value: `round ${round}` },
      });
      return [put.status, text.status];
    };
    const mcp = async (round: number) => {
      const id = ids[(round + 1) % ids.length]!;
      const outcome = await toolCall(agent, 'update_product', { id, name: `Agent ${round}` });
      return outcome.isError ? outcome.text : 'ok';
    };
    const restStatuses: number[] = [];
    const agentOutcomes: string[] = [];
    const restLoop = (async () => {
      for (let round = 0; round < 60; round++) {
        const batch = await Promise.all([rest(round), rest(round + 1000)]);
        restStatuses.push(...batch.flat());
      }
    })();
    const agentLoop = (async () => {
      for (let round = 0; round < 60; round++) agentOutcomes.push(await mcp(round));
    })();
    await Promise.all([restLoop, agentLoop]);
    expect(restStatuses.filter((status) => status !== 200)).toEqual([]);
    expect(agentOutcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
  }, 120_000);
});
