import autocannon from 'autocannon';
import { CpuMeter, type CpuReading } from './cpu.js';
import { RssWatch, type RssReading } from './rss.js';
import { round, Samples } from './stats.js';

export type Method = 'GET' | 'POST' | 'PUT';

/** One request of a load: a path and, for writes, a JSON body; headers of its own if any. */
export interface RequestSpec {
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadSpec {
  baseUrl: string;
  method: Method;
  connections: number;
  /** Seconds of measurement; a warm-up of `warmup` seconds runs first and is not counted. */
  duration: number;
  warmup: number;
  headers: Record<string, string>;
  /** Called for every request: random ids, unique bodies. */
  next: () => RequestSpec;
  /** Server process to watch for peak RSS, if any. */
  pid?: number;
  /** The status that counts as an answer (a conditional GET: 304); default any 2xx. */
  okStatus?: number;
}

/** Whether a status is the answer the load expects. */
export function isOk(status: number, okStatus?: number): boolean {
  return okStatus === undefined ? status >= 200 && status < 300 : status === okStatus;
}

export interface LoadResult {
  /** Expected answers (2xx, or okStatus) per second. */
  rps: number;
  p50: number | undefined;
  p99: number | undefined;
  maxMs: number;
  responses: number;
  /** Answers other than the expected status. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  /** Responses by status code. */
  statusCodes: Record<string, number>;
  seconds: number;
  bytesPerResponse: number;
  rss?: RssReading;
  /** Cores used during the measurement by the server, the load generator and everything else. */
  cpu?: CpuReading;
  /** Server CPU time per answered request, in µs: comparable even when other work shares the machine. */
  serverCpuUs?: number;
}

function options(spec: LoadSpec, duration: number): autocannon.Options {
  const hasBody = spec.method !== 'GET';
  return {
    url: spec.baseUrl,
    method: spec.method,
    connections: spec.connections,
    duration,
    timeout: 30,
    headers: hasBody ? { ...spec.headers, 'content-type': 'application/json' } : spec.headers,
    requests: [
      {
        setupRequest: (request) => {
          const next = spec.next();
          const headers = next.headers ? { ...request.headers, ...next.headers } : request.headers;
          return { ...request, path: next.path, body: next.body, headers };
        },
      },
    ],
  };
}

/** Runs autocannon for a warm-up, then for the measurement, recording every 2xx latency. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmup > 0) await autocannon(options(spec, spec.warmup));
  const samples = new Samples();
  const watch = spec.pid === undefined ? undefined : new RssWatch(spec.pid, 100);
  const meter = spec.pid === undefined ? undefined : new CpuMeter(spec.pid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options(spec, spec.duration), (error, r) =>
      error ? reject(error) : resolve(r),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (isOk(status, spec.okStatus)) samples.add(ms);
    });
  });
  const rss = watch?.stop();
  const cpu = meter?.stop();
  const [p50, p99] = samples.percentiles(50, 99);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = stat.count ?? 0;
  const responses = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    rps: round(samples.count / result.duration, 0),
    p50: p50 === undefined ? undefined : round(p50, 3),
    p99: p99 === undefined ? undefined : round(p99, 3),
    maxMs: round(result.latency.max, 1),
    responses,
    // Answers other than the expected ones (autocannon's own count treats a 304 as an error).
    non2xx:
      responses -
      Object.entries(statusCodes).reduce(
        (n, [code, count]) => (isOk(Number(code), spec.okStatus) ? n + count : n),
        0,
      ),
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    seconds: round(result.duration, 2),
    bytesPerResponse: responses ? Math.round(result.throughput.total / responses) : 0,
    rss,
    cpu,
    serverCpuUs: cpu && responses ? Math.round((cpu.server * result.duration * 1e6) / responses) : undefined,
  };
}
