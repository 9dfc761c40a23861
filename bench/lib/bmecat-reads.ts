import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { CpuMeter } from './cpu.js';
import { dataOf, send } from './http.js';
import type { Row } from './report.js';
import { round } from './stats.js';

/** Other users' reads while an import writes: the same bound as reads beside streaming lists (fairness). */
export const IMPORT_READS_TARGET_P99_MS = 100;

export interface ImportReadsResult {
  /** Products the import wrote (its report), and how long the job ran. */
  products: number;
  importMs: number;
  requests: number;
  p50: number;
  p99: number;
  maxMs: number;
  other?: number;
  failed?: string;
}

/**
 * Issue 35's fairness row for imports: `file` (products the open workspace holds: the export's first
 * ones) is imported over POST /api/import into the open workspace (merge: each product updated),
 * while 4 clients ask GET /api/product/{id} of random products one request after another, from the
 * moment the job answered 202 until it has ended. The latencies of those reads.
 */
export async function measureImportReads(
  baseUrl: string,
  token: string,
  pid: number,
  file: string,
  randomId: () => number,
): Promise<ImportReadsResult> {
  const fail = (failed: string): ImportReadsResult => ({
    products: 0,
    importMs: NaN,
    requests: 0,
    p50: NaN,
    p99: NaN,
    maxMs: NaN,
    failed,
  });
  const meter = new CpuMeter(pid);
  const started = performance.now();
  const upload = await fetch(`${baseUrl}/api/import?name=reads.xml&mode=merge`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
    body: Readable.toWeb(createReadStream(file)) as never,
    duplex: 'half',
  } as RequestInit);
  const job = (await upload.json()) as { data?: { id: number } };
  if (upload.status !== 202 || !job.data) {
    meter.stop();
    return fail(`${upload.status} ${JSON.stringify(job).slice(0, 200)}`);
  }
  let running = true;
  let failed: string | undefined;
  const latencies: number[] = [];
  const client = async () => {
    while (running) {
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}/api/product/${randomId()}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed ??= `GET by id answered ${response.status}`;
      latencies.push(performance.now() - t0);
    }
  };
  // The job's state is polled as any client would (nothing to await); the readers stop when it ends.
  const follow = async () => {
    try {
      for (;;) {
        const reply = await send(baseUrl, 'GET', { path: `/api/job/${job.data!.id}` }, token);
        const state = dataOf(reply) as {
          state: string;
          report?: { products: number };
          error?: { message: string };
        };
        if (state.state === 'running' || state.state === 'queued') {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (state.state !== 'succeeded') failed ??= `job ${state.state}: ${state.error?.message ?? ''}`;
        return state.report?.products ?? 0;
      }
    } finally {
      running = false;
    }
  };
  const [products] = await Promise.all([follow(), client(), client(), client(), client()]);
  const importMs = performance.now() - started;
  const cpu = meter.stop();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN, 1);
  return {
    products,
    importMs: round(importMs, 0),
    requests: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    maxMs: round(latencies[latencies.length - 1] ?? NaN, 1),
    other: cpu?.other,
    failed,
  };
}

export function importReadsRow(r: ImportReadsResult): Row {
  return {
    endpoint: 'GET /api/product/{id} while a BMEcat import writes',
    p50: r.p50,
    p99: r.p99,
    sequential: true,
    target: `p99 ≤ ${IMPORT_READS_TARGET_P99_MS} ms`,
    verdict: r.failed ? 'ERRORS' : r.p99 <= IMPORT_READS_TARGET_P99_MS ? 'met' : 'missed',
    note: [
      `${r.requests} requests from 4 clients during the import of ${r.products} products (merge into the open workspace) in ${r.importMs} ms; slowest ${r.maxMs} ms`,
      r.failed,
      r.other !== undefined && r.other > 0.2 ? `DISTURBED: other processes used ${r.other} cores` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}
