import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// The unpaged list is streamed in chunks of 1,000 rows; these tests cross chunk boundaries.
describe('GET /api/product without limit (streamed)', () => {
  let server: TestServer;
  let token: string;
  const mainIds: number[] = [];
  const variantIds: number[] = [];

  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
    for (let batch = 0; batch < 21; batch++) {
      const created = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          server.request<{ id: number }>('POST', '/api/product', {
            token,
            body: { supplierPid: `S-${batch}-${i}`, name: `Produkt ${batch}/${i}` },
          }),
        ),
      );
      for (const res of created) {
        expect(res.status).toBe(201);
        mainIds.push(res.body.data!.id);
      }
    }
    for (const master of mainIds.slice(0, 30)) {
      const res = await server.request<{ id: number }>('POST', `/api/product/${master}/variants`, {
        token,
        body: { supplierPid: `V-${master}` },
      });
      expect(res.status).toBe(201);
      variantIds.push(res.body.data!.id);
    }
  }, 60_000);
  afterAll(() => server.stop());

  it('returns every main product exactly once, in id order, as one valid envelope', async () => {
    const res = await server.request<{ id: number; name: string }[]>('GET', '/api/product', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.success).toBe(true);
    const ids = res.body.data!.map((p) => p.id);
    expect(ids).toEqual([...mainIds].sort((a, b) => a - b));
    expect(res.body.data!.find((p) => p.id === mainIds[0])?.name).toBe('Produkt 0/0');
  });

  it('with all=true includes the variants', async () => {
    const res = await server.request<{ id: number; masterProductId: number | null }[]>(
      'GET',
      '/api/product?all=true',
      {
        token,
      },
    );
    expect(res.status).toBe(200);
    const ids = res.body.data!.map((p) => p.id);
    expect(ids).toEqual([...mainIds, ...variantIds].sort((a, b) => a - b));
    expect(res.body.data!.filter((p) => p.masterProductId !== null)).toHaveLength(variantIds.length);
  });

  it('applies filters across chunks', async () => {
    const res = await server.request<{ supplierPid: string }[]>('GET', '/api/product?q=S-20-', { token });
    expect(res.status).toBe(200);
    expect(res.body.data!.map((p) => p.supplierPid).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `S-20-${i}`).sort(),
    );
  });

  it('refuses a bad filter with a 400 envelope before streaming anything', async () => {
    const res = await server.request('GET', '/api/product?updatedSince=yesterday', { token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: expect.stringContaining('updatedSince') });
  });
  it('streams exactly the DTOs that pages and single reads return, field for field, also for awkward values', async () => {
    const awkward = [
      'say "hi" \\ back',
      'tab\tnew\nline \u0001 ctrl',
      'emoji 🧰 ünïcödé',
      '<b>markup</b> &amp;',
      '',
    ];
    const created: { id: number }[] = [];
    for (const [i, name] of awkward.entries()) {
      const res = await server.request<{ id: number }>('POST', '/api/product', {
        token,
        body: {
          supplierPid: `AWK-${i} "q"`,
          // A blank name is refused; without one the DTO's name is "" all the same.
          ...(name === '' ? {} : { name }),
          ean: i % 2 ? null : `400${i}`,
          language: i === 2 ? 'eng' : 'deu',
        },
      });
      expect(res.status).toBe(201);
      created.push(res.body.data!);
    }
    // A single read is JSON written by SQLite too; the answer to POST is the DTO built in JavaScript.
    for (const dto of created) {
      const single = await server.request('GET', `/api/product/${dto.id}`, { token });
      expect(single.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(single.body.data).toEqual(dto);
    }
    const streamed = await server.request<unknown[]>('GET', '/api/product?all=true', { token });
    const paged: unknown[] = [];
    let next: string | null = '/api/product?all=true&limit=1000';
    while (next) {
      const page: Awaited<ReturnType<typeof server.request<unknown[]>>> = await server.request<unknown[]>(
        'GET',
        next,
        {
          token,
        },
      );
      expect(page.status).toBe(200);
      paged.push(...page.body.data!);
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(paged.length).toBeGreaterThan(1000);
    expect(streamed.body.data).toEqual(paged);
    // Lists and single reads must agree.
    const listed = streamed.body.data as { id: number; supplierPid: string }[];
    const sample = [...listed.filter((p) => p.supplierPid.startsWith('AWK-')), ...listed.slice(0, 5)];
    for (const item of sample) {
      const single = await server.request('GET', `/api/product/${item.id}`, { token });
      expect(single.body.data).toEqual(item);
    }
    // The name of the product created in eng falls back to it (no deu text), in both forms.
    expect(streamed.body.data).toContainEqual(
      expect.objectContaining({ supplierPid: 'AWK-2 "q"', name: 'emoji 🧰 ünïcödé' }),
    );
  });
});
