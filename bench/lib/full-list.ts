import { get } from 'node:http';
import { CpuMeter, type CpuReading } from './cpu.js';
import { RssWatch, type RssReading } from './rss.js';
import { median, round } from './stats.js';

/** One streamed answer: when its first byte and its last byte arrived. */
interface Timing {
  status: number;
  firstByteMs: number;
  wholeMs: number;
  bytes: number;
  /** The body, only when asked for (to count the items once). */
  body?: string;
}

export interface FullListResult {
  items: number | undefined;
  bytes: number;
  sequential: { firstByteMs: number[]; wholeMs: number[]; medianFirstByteMs: number; medianWholeMs: number };
  concurrent: { requests: number; wallMs: number; maxWholeMs: number; rss: RssReading };
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Cores used during the sequential requests. */
  cpu?: CpuReading;
}

export function fetchTimed(url: string, token: string, keepBody: boolean): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = get(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (response) => {
      const firstByteMs = performance.now() - started;
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          firstByteMs,
          wholeMs: performance.now() - started,
          bytes,
          body: keepBody ? Buffer.concat(chunks).toString('utf8') : undefined,
        }),
      );
      response.on('error', reject);
    });
    request.setTimeout(120_000, () => request.destroy(new Error('full list: no answer within 120 s')));
    request.on('error', reject);
  });
}

function countItems(body: string | undefined): number | undefined {
  try {
    const data = (JSON.parse(body ?? '') as { data?: unknown }).data;
    return Array.isArray(data) ? data.length : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The full list: `sequential` requests one after another (first byte, whole answer),
 * then `concurrent` at once while the server's resident memory is watched.
 */
export async function measureFullList(
  url: string,
  token: string,
  pid: number,
  counts: { sequential: number; concurrent: number },
): Promise<FullListResult> {
  const timings: Timing[] = [];
  const meter = new CpuMeter(pid);
  for (let i = 0; i < counts.sequential; i++) timings.push(await fetchTimed(url, token, i === 0));
  const cpu = meter.stop();
  const watch = new RssWatch(pid, 5);
  const started = performance.now();
  let parallel: Timing[];
  try {
    parallel = await Promise.all(
      Array.from({ length: counts.concurrent }, () => fetchTimed(url, token, false)),
    );
  } finally {
    watch.stop();
  }
  const wallMs = performance.now() - started;
  const rss = watch.stop();
  const statusCodes: Record<string, number> = {};
  for (const t of [...timings, ...parallel]) statusCodes[t.status] = (statusCodes[t.status] ?? 0) + 1;
  const firstByteMs = timings.map((t) => round(t.firstByteMs, 1));
  const wholeMs = timings.map((t) => round(t.wholeMs, 1));
  return {
    items: countItems(timings[0]?.body),
    bytes: timings[0]?.bytes ?? 0,
    sequential: {
      firstByteMs,
      wholeMs,
      medianFirstByteMs: median(firstByteMs) ?? NaN,
      medianWholeMs: median(wholeMs) ?? NaN,
    },
    concurrent: {
      requests: counts.concurrent,
      wallMs: round(wallMs, 1),
      maxWholeMs: round(Math.max(...parallel.map((t) => t.wholeMs)), 1),
      rss,
    },
    non2xx: [...timings, ...parallel].filter((t) => t.status < 200 || t.status >= 300).length,
    statusCodes,
    cpu,
  };
}
