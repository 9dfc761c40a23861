import type { Outcome } from './measure.js';
import type { Row } from './report.js';
import { busyNote } from './rows.js';
import { round } from './stats.js';

/** Issue 34: the default access log costs at most this much more CPU per GET than logs off. */
export const ACCESS_LOG_MAX_EXTRA = 0.1;

/** GET by id measured twice: pim as users run it (access log to a file) and with logs off. */
export interface AccessLogResult {
  on: Outcome;
  off: Outcome;
}

/**
 * The "access log vs off" row: its columns are the run without the access log
 * (PIM_LOG_LEVEL=warn), beside the GET by id row measured with it; the note compares their CPU.
 */
export function accessLogRow(result: AccessLogResult, baselineRps: number): Row {
  const endpoint = 'GET /api/product/{id}, logs off (vs the access log)';
  const target = `access log ≤ +${ACCESS_LOG_MAX_EXTRA * 100} % CPU`;
  const on = result.on.load;
  const off = result.off.load;
  if (result.on.state !== 'measured' || result.off.state !== 'measured' || !on || !off) {
    const reason = result.off.state === 'measured' ? result.on.reason : result.off.reason;
    return { endpoint, target, verdict: 'failed', note: reason ?? 'not measured' };
  }
  const errors = on.non2xx + on.errors + off.non2xx + off.errors;
  const onUs = on.serverCpuUs;
  const offUs = off.serverCpuUs;
  const extra = onUs !== undefined && offUs !== undefined ? onUs / offUs - 1 : undefined;
  const notes = [
    extra === undefined
      ? 'CPU not measured'
      : `the access log (to a file) costs ${extra >= 0 ? '+' : ''}${round(extra * 100, 1)} % CPU per GET: ` +
        `${onUs} µs with it, ${offUs} µs without; ${on.rps} vs ${off.rps} req/s`,
    errors ? `${errors} non-2xx answers or errors` : undefined,
    busyNote(on) && `with the log: ${busyNote(on)}`,
    busyNote(off) && `without: ${busyNote(off)}`,
  ].filter(Boolean);
  return {
    endpoint,
    rps: off.rps,
    ratio: round(off.rps / baselineRps, 3),
    p50: off.p50,
    p99: off.p99,
    rssMb: off.rss?.peakMb,
    cpuUs: offUs,
    target,
    verdict: errors ? 'ERRORS' : extra === undefined ? '—' : extra <= ACCESS_LOG_MAX_EXTRA ? 'met' : 'missed',
    note: notes.join('; '),
  };
}
