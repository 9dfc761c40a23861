import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_BACKEND } from '../helpers/backend.js';
import { call } from '../helpers/mcp.js';
import { sessionPerTest, type McpSession } from '../helpers/mcp-session.js';
import { deadlocksOnceDisconnected } from '../helpers/pg-deadlocks.js';

/**
 * A product sheet written with a group (update_product with groupId) while that group is deleted
 * with its products. Either order is a serial one: the sheet first (the product goes with the
 * group), or the delete first (GROUP_NOT_FOUND, or PRODUCT_NOT_FOUND for a product gone with it).
 * On PostgreSQL the sheet must lock the group before the product, as the delete does: in the other
 * order the two deadlock, and PostgreSQL ends that only after deadlock_timeout (1 s) by aborting
 * one of them, which is then retried. The server's deadlock count shows it.
 */

const { open } = sessionPerTest();
const ROUNDS = 8;
const PER_ROUND = 6;

async function deadlocks(s: McpSession): Promise<number> {
  const result = await sql<{ n: string }>`
    SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`.execute(
    s.server.app.stores.shared,
  );
  return Number(result.rows[0]!.n);
}

describe('a product sheet written with a group while the group is deleted', () => {
  it('ends as one of the serial orders, without a deadlock', async () => {
    const s = await open();
    const before = TEST_BACKEND === 'postgres' ? await deadlocks(s) : 0;
    let seq = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const pairs = await Promise.all(
        Array.from({ length: PER_ROUND }, async () => {
          const n = ++seq;
          const group = await s.rest<{ id: number }>('POST', '/api/group', { name: `Doomed ${n}` });
          const product = await s.rest<{ id: number }>('POST', '/api/product', { supplierPid: `SG-${n}` });
          expect(product.status, product.text).toBe(201);
          const productId = product.body.data!.id;
          await s.rest('POST', `/api/group/${group.body.data!.id}/products`, { productIds: [productId] });
          return { groupId: group.body.data!.id, productId };
        }),
      );
      await Promise.all(
        pairs.map(async ({ groupId, productId }) => {
          const [removed, written] = await Promise.all([
            s.rest('DELETE', `/api/group/${groupId}?deleteProducts=true`),
            call(s.client, 'update_product', {
              id: productId,
              groupId,
              shortTexts: [
                { lang: 'deu', value: 'Kurz' },
                { lang: 'eng', value: 'Short' },
              ],
              features: [{ ftidref: 'FT_A', values: [{ lang: 'deu', value: '1' }] }],
            }),
          ]);
          expect(removed.status, removed.text).toBe(200);
          if (written.isError) expect(['GROUP_NOT_FOUND', 'PRODUCT_NOT_FOUND']).toContain(written.data.code);
          // Either way the product went with its group.
          expect((await s.rest('GET', `/api/product/${productId}`)).status).toBe(404);
        }),
      );
    }
    if (TEST_BACKEND !== 'postgres') return;
    // Stopped, it closes its connections, whose backends report their counts as they exit.
    await s.server.app.stop();
    expect(await deadlocksOnceDisconnected(s.server.dataDir)).toBe(before);
  }, 60_000);
});
