import { FEATURES_PER_PRODUCT, LANGUAGES, LONG_TEXT_LANGUAGES } from '../config.js';
import type { Context } from '../endpoints.js';
import { CpuMeter } from './cpu.js';
import { describe, nextCursor, send } from './http.js';
import type { Row } from './report.js';
import { round } from './stats.js';

/** Targets of issue 12 for catalogue sync; issue 34's for reads answered while a bulk load writes. */
export const SYNC_TARGET = {
  bulkProductsPerSecond: 30_000,
  fullLoadSeconds: 5,
  nightlySyncMs: 2000,
  readWhileBulkMaxMs: 20,
};
const BATCH = 1000;

/** A full product document: texts in 3 languages (long in 2), 10 features with values in 3 languages. */
function document(runId: string, n: number) {
  const supplierPid = `BULK-${runId}-${n}`;
  return {
    supplierPid,
    ean: String(4000000000000 + n),
    manufacturerPid: `M-${n}`,
    shortTexts: LANGUAGES.map((lang) => ({ lang, value: `Produkt ${n} (${lang})` })),
    longTexts: LONG_TEXT_LANGUAGES.map((lang) => ({
      lang,
      value: `Beschreibung ${n} in ${lang}: `.padEnd(400, 'lorem ipsum dolor sit amet '),
    })),
    features: Array.from({ length: FEATURES_PER_PRODUCT }, (_, k) => ({
      ftidref: `BULK-F-${k}`,
      funit: k % 2 === 0 ? 'mm' : undefined,
      values: LANGUAGES.map((lang) => ({ lang, value: `${(n * (k + 1)) % 997},${k}` })),
    })),
  };
}

export interface BulkLoadResult {
  products: number;
  batches: number;
  seconds: number;
  productsPerSecond: number;
  medianBatchMs: number;
  serverCpuUsPerProduct?: number;
  other?: number;
  /** GET /api/product/{id} asked one after another by one client while the batches ran. */
  reads: { requests: number; p50: number; p99: number; maxMs: number };
  failed?: string;
}

/**
 * Loads new products through POST /api/product/bulk, batch after batch, until `products` are loaded
 * or `maxSeconds` have passed (then 100,000 is extrapolated and the row says so).
 */
export async function measureBulkLoad(
  ctx: Context,
  serverPid: number,
  products: number,
  maxSeconds: number,
): Promise<BulkLoadResult> {
  const batchMs: number[] = [];
  const meter = new CpuMeter(serverPid);
  const started = performance.now();
  let loaded = 0;
  let failed: string | undefined;
  // Another user's reads meanwhile (issue 34: a GET waited up to 260 ms behind a batch).
  let loading = true;
  const readMs: number[] = [];
  const { firstId, products: existing } = ctx.manifest;
  const reader = (async () => {
    while (loading) {
      const id = firstId + Math.floor(Math.random() * existing);
      const t0 = performance.now();
      const reply = await send(ctx.baseUrl, 'GET', { path: `/api/product/${id}` }, ctx.token);
      if (reply.status !== 200) failed ??= `GET by id during the load: ${describe(reply)}`;
      readMs.push(performance.now() - t0);
    }
  })();
  while (loaded < products && (performance.now() - started) / 1000 < maxSeconds) {
    const body = JSON.stringify(Array.from({ length: BATCH }, (_, i) => document(ctx.runId, loaded + i)));
    const t0 = performance.now();
    const reply = await send(ctx.baseUrl, 'POST', { path: '/api/product/bulk', body }, ctx.token);
    batchMs.push(performance.now() - t0);
    const results = (reply.body as { data?: { status: number }[] }).data;
    const refused = results?.filter((r) => r.status !== 201).length ?? BATCH;
    if (reply.status !== 200 || refused > 0) {
      failed = reply.status !== 200 ? describe(reply) : `${refused} documents refused`;
      break;
    }
    loaded += BATCH;
  }
  const seconds = (performance.now() - started) / 1000;
  loading = false;
  await reader;
  const cpu = meter.stop();
  batchMs.sort((a, b) => a - b);
  readMs.sort((a, b) => a - b);
  const readAt = (q: number) =>
    round(readMs[Math.min(readMs.length - 1, Math.floor(q * readMs.length))] ?? NaN, 1);
  return {
    products: loaded,
    batches: batchMs.length,
    seconds: round(seconds, 2),
    productsPerSecond: Math.round(loaded / seconds),
    medianBatchMs: round(batchMs[Math.floor(batchMs.length / 2)] ?? NaN, 1),
    serverCpuUsPerProduct: cpu && loaded ? Math.round((cpu.server * seconds * 1e6) / loaded) : undefined,
    other: cpu?.other,
    reads: {
      requests: readMs.length,
      p50: readAt(0.5),
      p99: readAt(0.99),
      maxMs: round(readMs[readMs.length - 1] ?? NaN, 1),
    },
    failed,
  };
}

export interface NightlySyncResult {
  items: number;
  pages: number;
  ms: number;
  failed?: string;
}

/** Reads every product (variants included) by pages of 1,000, following the Link header. */
export async function measureNightlySync(ctx: Context): Promise<NightlySyncResult> {
  const started = performance.now();
  let path: string | undefined = '/api/product?all=true&limit=1000';
  let items = 0;
  let pages = 0;
  while (path) {
    const reply = await send(ctx.baseUrl, 'GET', { path }, ctx.token);
    if (reply.status !== 200) return { items, pages, ms: NaN, failed: describe(reply) };
    items += ((reply.body as { data: unknown[] }).data ?? []).length;
    pages += 1;
    const after = nextCursor(reply, ctx.baseUrl);
    path = after === undefined ? undefined : `/api/product?all=true&limit=1000&after=${after}`;
  }
  return { items, pages, ms: round(performance.now() - started, 0) };
}

export function bulkLoadRow(result: BulkLoadResult): Row {
  const fullLoad = round(100_000 / result.productsPerSecond, 1);
  const met =
    result.productsPerSecond >= SYNC_TARGET.bulkProductsPerSecond &&
    fullLoad <= SYNC_TARGET.fullLoadSeconds &&
    result.reads.maxMs <= SYNC_TARGET.readWhileBulkMaxMs;
  return {
    endpoint: 'POST /api/product/bulk: 1,000 full documents',
    rps: result.productsPerSecond,
    p50: result.medianBatchMs,
    cpuUs: result.serverCpuUsPerProduct,
    sequential: true,
    target: `≥ ${SYNC_TARGET.bulkProductsPerSecond.toLocaleString('en')} products/s, 100,000 in ≤ ${SYNC_TARGET.fullLoadSeconds} s; no GET meanwhile over ${SYNC_TARGET.readWhileBulkMaxMs} ms`,
    verdict: result.failed ? 'ERRORS' : met ? 'met' : 'missed',
    note: [
      `req/s column: products/s; p50: one batch; CPU µs per product`,
      `${result.products} products in ${result.batches} batches in ${result.seconds} s` +
        (result.products < 100_000 ? `; 100,000 would take ${fullLoad} s (extrapolated)` : ''),
      `GET by id meanwhile (one client, ${result.reads.requests} requests): p50 ${result.reads.p50} ms, p99 ${result.reads.p99} ms, slowest ${result.reads.maxMs} ms`,
      result.failed,
      result.other !== undefined && result.other > 0.2
        ? `DISTURBED: other processes used ${result.other} cores`
        : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

export function nightlySyncRow(result: NightlySyncResult, expected: number): Row {
  const wrong =
    result.failed ?? (result.items < expected ? `${result.items} items, expected ${expected}` : '');
  return {
    endpoint: 'nightly sync: all products by pages of 1,000',
    p50: result.ms,
    sequential: true,
    target: `≤ ${SYNC_TARGET.nightlySyncMs} ms`,
    verdict: wrong ? 'ERRORS' : result.ms <= SYNC_TARGET.nightlySyncMs ? 'met' : 'missed',
    note: [`${result.items} items in ${result.pages} pages; p50 column: the whole sync in ms`, wrong]
      .filter(Boolean)
      .join('; '),
  };
}
