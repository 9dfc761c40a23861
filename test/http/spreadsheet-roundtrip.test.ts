import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiResponse, type TestServer } from '../helpers/server.js';

/**
 * Issue 36, point 9: generated products exported as a spreadsheet (GET /api/export, helper S's)
 * and imported back change nothing; a file with edited cells changes exactly those values.
 */
interface Job {
  state: string;
  report: { rows: number; created: number; changed: number; unchanged: number } | null;
  error: unknown;
}

let server: TestServer;
let token: string;
let run = 0;
beforeAll(async () => {
  server = await startServer();
  token = await server.login();
});
afterAll(() => server.stop());

const call = <T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> =>
  server.request<T>(method, path, { token, body });

async function importFile(body: Buffer, type: string): Promise<Job> {
  const res = await server.request<{ id: number }>('POST', '/api/import', {
    token,
    rawBody: body,
    headers: { 'content-type': type },
  });
  expect(res.status, res.text).toBe(202);
  let job: Job | undefined;
  await expect
    .poll(async () => {
      job = (await call<Job>('GET', `/api/job/${res.body.data!.id}`)).body.data;
      return job?.state;
    })
    .not.toMatch(/^(queued|running)$/);
  return job!;
}

const counter = async () =>
  (await call<{ active: boolean; changeCounter: number }[]>('GET', '/api/workspace')).body.data!.find(
    (w) => w.active,
  )!.changeCounter;

// Values that test the cell rules: formula starts, quotes, delimiters, line breaks, OOXML escapes.
const piece = fc.constantFrom(
  'a',
  'Z',
  '1',
  '=',
  '+',
  '-',
  '@',
  '\t',
  "'",
  '"',
  ',',
  ';',
  '\n',
  'ä',
  '😀',
  ' ',
  '_x0041_',
);
const value = fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
// A value on one line: the edit below replaces a product's line of the exported file.
const oneLine = fc
  .array(
    piece.filter((p) => p !== '\n'),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(''));
const productOf = (deu: fc.Arbitrary<string>) =>
  fc.record({
    ean: fc.option(value, { nil: undefined }),
    deu,
    eng: fc.option(value, { nil: undefined }),
    feature: fc.option(
      fc.record({ deu: value, funit: fc.option(fc.constantFrom('mm', 'kg'), { nil: undefined }) }),
      {
        nil: undefined,
      },
    ),
  });
const product = productOf(value);
type Product = typeof product extends fc.Arbitrary<infer T> ? T : never;

async function create(products: Product[]): Promise<string[]> {
  run++;
  const pids = products.map((_, i) => `RT-${run}-${i}`);
  const res = await call<{ status: number }[]>(
    'POST',
    '/api/product/bulk',
    products.map((p, i) => ({
      supplierPid: pids[i],
      ...(p.ean !== undefined ? { ean: p.ean.trim() === '' ? 'x' : p.ean.slice(0, 100) } : {}),
      shortTexts: [
        { lang: 'deu', value: p.deu },
        ...(p.eng !== undefined ? [{ lang: 'eng', value: p.eng }] : []),
      ],
      ...(p.feature
        ? {
            features: [
              {
                ftidref: 'RT-F',
                values: [{ lang: 'deu', value: p.feature.deu }],
                ...(p.feature.funit ? { funit: p.feature.funit } : {}),
              },
            ],
          }
        : {}),
    })),
  );
  expect(
    res.body.data!.every((r) => r.status === 201),
    res.text,
  ).toBe(true);
  return pids;
}

async function exported(format: 'csv' | 'xlsx', query = ''): Promise<Buffer> {
  const res = await fetch(`${server.baseUrl}/api/export?format=${format}${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('spreadsheet round trip', () => {
  it('export → import changes nothing (CSV and XLSX)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(product, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('csv', 'xlsx'),
        async (products, format) => {
          await create(products);
          const total = (await call<unknown[]>('GET', '/api/product?all=true')).body.data!.length;
          const file = await exported(format);
          const before = await counter();
          const job = await importFile(
            file,
            format === 'csv'
              ? 'text/csv'
              : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          );
          expect(job.error).toBeNull();
          expect(job.report).toMatchObject({ rows: total, created: 0, changed: 0, unchanged: total });
          expect(await counter()).toBe(before);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('edited cells → exactly those changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(productOf(oneLine), { minLength: 2, maxLength: 5 }),
        oneLine,
        fc.nat(),
        async (products, text, pick) => {
          const pids = await create(products);
          const target = pids[pick % pids.length]!;
          const sheetsBefore = await sheets(pids);
          // The export's own file, one cell edited: the target's German short text.
          const lines = (await exported('csv', '&columns=supplierPid,short[deu]')).toString('utf8');
          const edited = lines.replace(new RegExp(`^${target},.*$`, 'm'), `${target},${csvCell(text)}`);
          const job = await importFile(Buffer.from(edited), 'text/csv');
          const changed = text !== products[pick % pids.length]!.deu;
          expect(job.report).toMatchObject({ changed: changed ? 1 : 0 });
          const after = await sheets(pids);
          for (const pid of pids) {
            if (pid !== target) expect(after.get(pid)).toEqual(sheetsBefore.get(pid));
            else
              expect(after.get(pid)).toEqual({
                ...sheetsBefore.get(pid),
                shortTexts: sheetsBefore
                  .get(pid)!
                  .shortTexts.map((t) => (t.lang === 'deu' ? { lang: 'deu', value: text } : t)),
              });
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});

function csvCell(text: string): string {
  const guarded = /^[=+\-@\t\r']/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

async function sheets(pids: readonly string[]) {
  const list = (await call<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true')).body.data!;
  const out = new Map<string, { shortTexts: { lang: string; value: string }[]; [k: string]: unknown }>();
  for (const p of list.filter((p) => pids.includes(p.supplierPid))) {
    const sheet = (await call<Record<string, unknown>>('GET', `/api/product/${p.id}/sheet`)).body.data!;
    const { product, ...rest } = sheet as { product: Record<string, unknown> };
    const { updatedAt: _u, name: _n, ...fields } = product;
    out.set(p.supplierPid, {
      ...(rest as { shortTexts: { lang: string; value: string }[] }),
      product: fields,
    });
  }
  return out;
}
