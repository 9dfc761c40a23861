import { fetchTimed } from './full-list.js';
import type { Row } from './report.js';
import { round } from './stats.js';

export const FAIRNESS_TARGET_P99_MS = 100;

export interface FairnessResult {
  /** What streamed meanwhile, for the row's name: "10 full lists stream". */
  streaming: string;
  /** How many answers streamed. */
  lists: number;
  listsMs: number;
  requests: number;
  p50: number;
  p99: number;
  maxMs: number;
  failed?: string;
}

/** `count` full lists of the catalogue, as measureFairness streams them. */
export function fullLists(count: number): { paths: string[]; streaming: string } {
  return {
    paths: Array.from({ length: count }, () => '/api/product?all=true'),
    streaming: `${count} full lists stream`,
  };
}

/**
 * Whether long answers starve short ones: the `paths` (full lists, an export) stream at once, each
 * read as fast as it comes, while 4 clients ask GET /api/product/{id} one request after another;
 * the latencies of those short requests.
 */
export async function measureFairness(
  baseUrl: string,
  token: string,
  randomId: () => number,
  { paths, streaming: what }: { paths: string[]; streaming: string },
): Promise<FairnessResult> {
  const started = performance.now();
  let streaming = true;
  const listing = Promise.all(paths.map((path) => fetchTimed(`${baseUrl}${path}`, token, false))).finally(
    () => {
      streaming = false;
    },
  );
  const latencies: number[] = [];
  let failed: string | undefined;
  const client = async () => {
    while (streaming) {
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}/api/product/${randomId()}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed ??= `GET by id answered ${response.status}`;
      latencies.push(performance.now() - t0);
    }
  };
  const [timings] = await Promise.all([listing, client(), client(), client(), client()]);
  const bad = timings.filter((t) => t.status !== 200).length;
  if (bad) failed ??= `${bad} streamed answers were errors`;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN, 1);
  return {
    streaming: what,
    lists: paths.length,
    listsMs: round(performance.now() - started, 0),
    requests: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    maxMs: round(latencies[latencies.length - 1] ?? NaN, 1),
    failed,
  };
}

export function fairnessRow(result: FairnessResult): Row {
  return {
    endpoint: `GET /api/product/{id} while ${result.streaming}`,
    p50: result.p50,
    p99: result.p99,
    sequential: true,
    target: `p99 ≤ ${FAIRNESS_TARGET_P99_MS} ms`,
    verdict: result.failed ? 'ERRORS' : result.p99 <= FAIRNESS_TARGET_P99_MS ? 'met' : 'missed',
    note: [
      `${result.requests} requests from 4 clients during ${result.listsMs} ms of streaming; slowest ${result.maxMs} ms`,
      result.failed,
    ]
      .filter(Boolean)
      .join('; '),
  };
}
