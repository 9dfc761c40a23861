import type { Context } from '../endpoints.js';
import { CpuMeter } from './cpu.js';
import { dataOf, describe, send } from './http.js';
import type { Row } from './report.js';
import { round } from './stats.js';

/**
 * Issue 36's rows: a feature value set on half of the benchmark catalogue (the first half of the
 * products by id, named as `select.ids`) through POST /api/product/mass-edit, from the request to
 * the job's end as a client sees it (GET /api/job/{id} polled every 20 ms), with the largest gap
 * between two progress updates; then the undo of it (POST /api/job/{id}/undo) the same way.
 */
export const MASS_EDIT_TARGET = { ms: 10_000, progressGapMs: 1_000 };

export interface JobRun {
  products: number;
  ms: number;
  /** The longest time the job's `processed` stood still while it ran (start and end included). */
  largestGapMs: number;
  updates: number;
  other?: number;
  /** CPU seconds of pim and of the PostgreSQL server's processes (all of them) while it ran: less disturbed than the time. */
  cpuSeconds?: { server: number; database: number };
  failed?: string;
}

export interface MassEditResult {
  edit: JobRun;
  undo?: JobRun;
}

const POLL_MS = 20;

async function follow(
  ctx: Context,
  path: string,
  body: unknown,
  pid: number,
): Promise<JobRun & { id?: number }> {
  const meter = new CpuMeter(pid);
  const started = performance.now();
  const reply = await send(
    ctx.baseUrl,
    'POST',
    { path, body: body === undefined ? undefined : JSON.stringify(body) },
    ctx.token,
  );
  const job = dataOf(reply) as { id: number } | undefined;
  if (reply.status !== 202 || !job) {
    meter.stop();
    return { products: 0, ms: NaN, largestGapMs: NaN, updates: 0, failed: describe(reply) };
  }
  let last = -1;
  let lastAt = started;
  let largestGapMs = 0;
  let updates = 0;
  for (;;) {
    const state = dataOf(await send(ctx.baseUrl, 'GET', { path: `/api/job/${job.id}` }, ctx.token)) as {
      state: string;
      processed: number;
      report?: { changed?: number; restored?: number };
      error?: { message: string };
    };
    const now = performance.now();
    if (state.processed !== last) {
      largestGapMs = Math.max(largestGapMs, now - lastAt);
      last = state.processed;
      lastAt = now;
      updates++;
    }
    if (state.state === 'running' || state.state === 'queued') {
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    const ms = now - started;
    largestGapMs = Math.max(largestGapMs, now - lastAt);
    const cpu = meter.stop();
    const cpuSeconds = cpu && {
      server: round((cpu.server * ms) / 1000, 1),
      database: round((cpu.database * ms) / 1000, 1),
    };
    if (state.state !== 'succeeded')
      return {
        products: 0,
        ms,
        largestGapMs,
        updates,
        failed: `job ${state.state}: ${state.error?.message ?? ''}`,
      };
    return {
      id: job.id,
      products: state.report?.changed ?? state.report?.restored ?? 0,
      ms: round(ms, 0),
      largestGapMs: round(largestGapMs, 0),
      updates,
      other: cpu?.other,
      cpuSeconds,
    };
  }
}

export async function measureMassEdit(ctx: Context, pid: number): Promise<MassEditResult> {
  const half = Math.floor(ctx.manifest.products / 2);
  const ids = Array.from({ length: half }, (_, i) => ctx.manifest.firstId + i);
  const edit = await follow(
    ctx,
    '/api/product/mass-edit',
    {
      select: { ids },
      action: {
        setFeature: {
          ftidref: `BENCH-MASS-${ctx.runId}`,
          funit: 'mm',
          values: [{ lang: 'deu', value: '12' }],
        },
      },
    },
    pid,
  );
  if (edit.id === undefined) return { edit };
  return { edit, undo: await follow(ctx, `/api/job/${edit.id}/undo`, undefined, pid) };
}

function disturbed(other: number | undefined): string {
  return other !== undefined && other > 0.2 ? `DISTURBED: other processes used ${other} cores` : '';
}

function row(title: string, r: JobRun): Row {
  const perSecond = Number.isFinite(r.ms) && r.ms > 0 ? Math.round(r.products / (r.ms / 1000)) : 0;
  const met = r.ms <= MASS_EDIT_TARGET.ms && r.largestGapMs <= MASS_EDIT_TARGET.progressGapMs;
  return {
    endpoint: title,
    rps: perSecond,
    p50: r.ms,
    sequential: true,
    target: `≤ ${MASS_EDIT_TARGET.ms / 1000} s, progress at least every ${MASS_EDIT_TARGET.progressGapMs / 1000} s`,
    verdict: r.failed ? 'ERRORS' : met ? 'met' : 'missed',
    note: [
      `req/s column: products/s; p50: request to job done in ms; ${r.products.toLocaleString('en')} products; ` +
        `largest gap between progress updates ${r.largestGapMs} ms (${r.updates} updates seen, polled every ${POLL_MS} ms)`,
      r.cpuSeconds &&
        `CPU: pim ${r.cpuSeconds.server} s` +
          (r.cpuSeconds.database > 0
            ? `, database ${r.cpuSeconds.database} s (every process of the PostgreSQL server)`
            : ''),
      'bound by the chunks\u2019 statements (1,000 products each: lock, read, write, touch, undo rows); on ' +
        'PostgreSQL by the rows they write: the touch (a new product row version in each of its 7 indexes, ' +
        'updated_at being indexed) and the feature rows with their value keys',
      r.failed,
      disturbed(r.other),
    ]
      .filter(Boolean)
      .join('; '),
  };
}

export function massEditRows(r: MassEditResult): Row[] {
  return [
    row('POST /api/product/mass-edit: setFeature on half the catalogue (job)', r.edit),
    ...(r.undo ? [row('POST /api/job/{id}/undo: undo of that mass edit (job)', r.undo)] : []),
  ];
}
