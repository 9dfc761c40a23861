import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/**
 * A product's name (its short text) may hold 1,000,000 characters, so 1,000 products make a
 * chunk of gigabytes: the streamed list bounds its chunks by the names' stored lengths (8 MB:
 * here one long name a chunk, then the short ones together) and must still send every product
 * once, in id order; so must a page.
 */
const file = serverPerFile();

describe('the full list with very long names', () => {
  it('streams every product once, in id order, names whole, in chunks of any size', async () => {
    const big = 'Ä'.repeat(700_000);
    const docs = Array.from({ length: 40 }, (_, i) => ({
      supplierPid: `LONG-${String(i).padStart(2, '0')}`,
      // Large ones in a run, then small ones: the chunks shrink, then grow again.
      shortTexts: [{ lang: 'deu', value: i < 24 ? `${i}${big}` : `klein ${i}` }],
    }));
    // In batches under the bulk routes' 16 MiB.
    for (let start = 0; start < docs.length; start += 8) {
      const stored = await file.server.request<{ status: number }[]>('POST', '/api/product/bulk', {
        token: file.token,
        body: docs.slice(start, start + 8),
      });
      expect(stored.status, stored.text.slice(0, 200)).toBe(200);
      expect(stored.body.data!.every((r) => r.status === 201)).toBe(true);
    }
    const listed = await file.server.request<{ id: number; supplierPid: string; name: string }[]>(
      'GET',
      '/api/product?all=true&q=LONG-',
      { token: file.token },
    );
    expect(listed.status).toBe(200);
    const items = listed.body.data!;
    expect(items.map((p) => p.supplierPid)).toEqual(docs.map((d) => d.supplierPid));
    expect(items.map((p) => p.id)).toEqual([...items.map((p) => p.id)].sort((a, b) => a - b));
    items.forEach((p, i) => expect(p.name).toBe(docs[i]!.shortTexts[0]!.value));
    const page = await file.server.request<{ supplierPid: string }[]>(
      'GET',
      '/api/product?q=LONG-&limit=200',
      {
        token: file.token,
      },
    );
    expect(page.status).toBe(200);
    expect(page.body.data!.map((p) => p.supplierPid)).toEqual(docs.map((d) => d.supplierPid));
  });
});
