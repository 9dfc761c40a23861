import type { Endpoint } from '../endpoints.js';
import type { FullListResult } from './full-list.js';
import { isOk, type LoadResult } from './load.js';
import type { Outcome } from './measure.js';
import { judge, targetText, type Row } from './report.js';
import { round } from './stats.js';

export const FULL_LIST_TARGET = { firstByteMs: 20, wholeMs: 300, rssMb: 200 };
/** Team mode's targets (issue 11): the first byte crosses the network to PostgreSQL first. */
export const FULL_LIST_TARGET_POSTGRES = { ...FULL_LIST_TARGET, firstByteMs: 50 };

export type FullListOutcome = { result: FullListResult; expectedItems: number } | { unavailable: string };

function errorNote(outcome: Outcome, okStatus?: number): string | undefined {
  const load = outcome.load!;
  if (load.non2xx === 0 && load.errors === 0) return undefined;
  const codes = Object.entries(load.statusCodes)
    .filter(([code]) => !isOk(Number(code), okStatus))
    .map(([code, n]) => `${n}× ${code}`);
  if (load.errors) codes.push(`${load.errors} connection errors (${load.timeouts} timeouts)`);
  return `${codes.join(', ')} of ${load.responses + load.errors}; e.g. ${outcome.errorSample ?? '?'}`;
}

/** Other processes above this many cores during a measurement disturb it: say so. */
export const BUSY_CORES = 0.2;

export function busyNote(load: Pick<LoadResult, 'cpu'>): string | undefined {
  const other = load.cpu?.other ?? 0;
  return other > BUSY_CORES
    ? `DISTURBED: other processes used ${other} cores during the measurement`
    : undefined;
}

/** What rows are judged against: the bare server's figures and the other rows' CPU. */
export interface Baseline {
  rps: number;
  cpuUs?: number;
  cpuOfRow?: (key: string) => number | undefined;
  /** The endpoint measured as row `key`, for information that names it. */
  endpointOfRow?: (key: string) => Endpoint | undefined;
}

/** CPU per item of a row that reads one item in several requests (Endpoint.requestsPerItem). */
function cpuPerItem(endpoint: Endpoint, cpuUs: number | undefined): number | undefined {
  return endpoint.requestsPerItem && cpuUs !== undefined ? cpuUs * endpoint.requestsPerItem.count : undefined;
}

/** The informative CPU notes: per item, and compared with another row's item (no verdict). */
function cpuNotes(endpoint: Endpoint, cpuUs: number | undefined, baseline: Baseline): string[] {
  const notes: string[] = [];
  const own = cpuPerItem(endpoint, cpuUs);
  if (own !== undefined) {
    notes.push(
      `CPU per ${endpoint.requestsPerItem!.item}: ${round(own, 0)} µs (${endpoint.requestsPerItem!.count} requests)`,
    );
  }
  const key = endpoint.compareCpuWith;
  const other = key ? baseline.endpointOfRow?.(key) : undefined;
  // Per item when the other row reads one in several requests, else per request.
  const theirCpu = key ? baseline.cpuOfRow?.(key) : undefined;
  const theirs = other ? (cpuPerItem(other, theirCpu) ?? theirCpu) : undefined;
  if (other && theirs !== undefined && cpuUs !== undefined) {
    notes.push(`CPU ${round(cpuUs / theirs, 2)}× that of the ${other.label} (${round(theirs, 0)} µs)`);
  }
  return notes;
}

export function endpointRow(endpoint: Endpoint, outcome: Outcome, baseline: Baseline): Row {
  const baselineRps = baseline.rps;
  const target = targetText(endpoint.target, endpoint.connections);
  if (outcome.state !== 'measured') {
    return { endpoint: endpoint.label, target, verdict: outcome.state, note: outcome.reason };
  }
  const load = outcome.load!;
  const ratio = endpoint.ratio ? round(load.rps / baselineRps, 3) : undefined;
  const errors = errorNote(outcome, endpoint.okStatus);
  const verdict =
    errors || outcome.reason
      ? 'ERRORS'
      : judge(
          endpoint.target,
          { ratio, p50: load.p50, p99: load.p99, cpuUs: load.serverCpuUs },
          { bareUs: baseline.cpuUs, ofRow: baseline.cpuOfRow },
        );
  const notes = [
    outcome.note,
    outcome.reason,
    errors,
    busyNote(load),
    ...cpuNotes(endpoint, load.serverCpuUs, baseline),
  ].filter(Boolean);
  if (!endpoint.ratio)
    notes.push(
      `${endpoint.connections} connections; ${round(1000 / load.rps, 1)} ms of server time per request`,
    );
  return {
    endpoint: endpoint.label,
    rps: load.rps,
    ratio,
    p50: load.p50,
    p99: load.p99,
    rssMb: load.rss?.peakMb,
    cpuUs: load.serverCpuUs,
    target,
    verdict,
    note: notes.join('; ') || undefined,
  };
}

export function fullListRows(outcome: FullListOutcome, targets = FULL_LIST_TARGET): Row[] {
  const label = 'GET /api/product?all=true';
  if ('unavailable' in outcome) {
    return [
      {
        endpoint: label,
        target: 'first byte ≤ 20 ms, whole ≤ 300 ms, RSS ≤ 200 MB',
        verdict: 'not available',
        note: outcome.unavailable,
      },
    ];
  }
  const { result, expectedItems } = outcome;
  const problems: string[] = [];
  if (result.non2xx > 0)
    problems.push(`${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodes)})`);
  if (result.items !== expectedItems)
    problems.push(`${result.items ?? 'no'} items instead of ${expectedItems}`);
  const bad = problems.length > 0;
  const seq = result.sequential;
  const verdict = (ok: boolean) => (bad ? 'ERRORS' : ok ? 'met' : 'missed');
  return [
    {
      endpoint: `${label}: first byte`,
      p50: seq.medianFirstByteMs,
      p99: Math.max(...seq.firstByteMs),
      sequential: true,
      target: `median ≤ ${targets.firstByteMs} ms`,
      verdict: verdict(seq.medianFirstByteMs <= targets.firstByteMs),
      note: [
        `${seq.firstByteMs.length} sequential requests; p99 column shows the slowest`,
        ...problems,
        busyNote(result),
      ]
        .filter(Boolean)
        .join('; '),
    },
    {
      endpoint: `${label}: whole answer`,
      p50: seq.medianWholeMs,
      p99: Math.max(...seq.wholeMs),
      sequential: true,
      target: `median ≤ ${targets.wholeMs} ms`,
      verdict: verdict(seq.medianWholeMs <= targets.wholeMs),
      note: `${result.items ?? '?'} items, ${round(result.bytes / 2 ** 20, 1)} MB`,
    },
    {
      endpoint: `${label}: ${result.concurrent.requests} at once`,
      p99: result.concurrent.maxWholeMs,
      sequential: true,
      rssMb: result.concurrent.rss.peakMb,
      target: `RSS ≤ ${targets.rssMb} MB`,
      verdict: verdict(result.concurrent.rss.peakMb <= targets.rssMb),
      note: `all answered in ${result.concurrent.wallMs} ms; RSS ${result.concurrent.rss.beforeMb} MB before (${result.concurrent.rss.source})`,
    },
  ];
}
