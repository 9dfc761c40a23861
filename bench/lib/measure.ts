import type { Context, Endpoint } from '../endpoints.js';
import { describe, send } from './http.js';
import { runLoad, type LoadResult, type Method, type RequestSpec } from './load.js';
import type { Server } from './processes.js';
import { waitForQuiet } from './cpu.js';

export interface Timing {
  duration: number;
  warmup: number;
  /** How long to wait at most for other processes to calm down before a measurement, in ms. */
  quietWaitMs: number;
}

export interface Outcome {
  key: string;
  label: string;
  connections: number;
  state: 'measured' | 'not available' | 'failed';
  reason?: string;
  note?: string;
  load?: LoadResult;
  /** For runs with non-2xx answers: the first failing answer of a sequential replay. */
  errorSample?: string;
  /** What the server logged (level warn and above) during the measurement, when it had errors. */
  serverLog?: string;
}

/** Replays up to 50 requests one by one and describes the first one that fails. */
async function sampleError(ctx: Context, method: Method, next: () => RequestSpec): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const spec = next();
    const reply = await send(ctx.baseUrl, method, spec, ctx.token);
    if (reply.status < 200 || reply.status >= 300) return `${method} ${spec.path}: ${describe(reply)}`;
  }
  return 'not reproduced by 50 sequential requests (happens under load only)';
}

/** One line after each measurement: throughput, latency, errors and who used the CPU. */
export function summary(load: LoadResult): string {
  const cpu = load.cpu
    ? `; server CPU ${load.serverCpuUs} µs/req; cores: server ${load.cpu.server}, autocannon ${load.cpu.bench}, database ${load.cpu.database}, other ${load.cpu.other}`
    : '';
  const errors = load.non2xx + load.errors ? `; ${load.non2xx} non-2xx, ${load.errors} errors` : '';
  return `→ ${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms${errors}${cpu}`;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Probes an endpoint, then loads it with autocannon; never throws. */
export async function measureEndpoint(
  endpoint: Endpoint,
  ctx: Context,
  timing: Timing,
  pim: Server,
): Promise<Outcome> {
  const base = { key: endpoint.key, label: endpoint.label, connections: endpoint.connections };
  if (pim.exitCode() !== null) return { ...base, state: 'failed', reason: `pim exited (${pim.exitCode()})` };
  try {
    const prepared = await endpoint.prepare(ctx);
    if ('unavailable' in prepared) {
      console.log(`  ${endpoint.label}: not available (${prepared.unavailable})`);
      return { ...base, state: 'not available', reason: prepared.unavailable };
    }
    await waitForQuiet(pim.pid, timing.quietWaitMs);
    const logStart = pim.logMark();
    console.log(`  ${endpoint.label}: ${endpoint.connections} connections, ${timing.duration} s`);
    const load = await runLoad({
      baseUrl: ctx.baseUrl,
      method: endpoint.method,
      connections: endpoint.connections,
      duration: timing.duration,
      warmup: timing.warmup,
      headers: { authorization: `Bearer ${ctx.token}` },
      next: prepared.next,
      pid: pim.pid,
      okStatus: endpoint.okStatus,
    });
    console.log(`    ${summary(load)}`);
    const outcome: Outcome = { ...base, state: 'measured', note: prepared.note, load };
    if (load.non2xx > 0 || load.errors > 0) {
      outcome.errorSample = await sampleError(ctx, endpoint.method, prepared.next);
      outcome.serverLog = pim.loggedSince(logStart) || undefined;
    }
    if (pim.exitCode() !== null) outcome.reason = `pim exited (${pim.exitCode()}) during the measurement`;
    return outcome;
  } catch (error) {
    return { ...base, state: 'failed', reason: message(error) };
  }
}

/** The baseline, loaded exactly like GET by id (same paths, headers and per-request setup). */
export async function measureBaseline(baseline: Server, ctx: Context, timing: Timing): Promise<LoadResult> {
  const ids = ctx.manifest.products;
  await waitForQuiet(baseline.pid, timing.quietWaitMs);
  const load = await runLoad({
    baseUrl: baseline.baseUrl,
    method: 'GET',
    connections: 50,
    duration: timing.duration,
    warmup: timing.warmup,
    headers: { authorization: `Bearer ${ctx.token}` },
    next: () => ({ path: `/api/product/${1 + Math.floor(Math.random() * ids)}` }),
    pid: baseline.pid,
  });
  console.log(`    ${summary(load)}`);
  return load;
}
