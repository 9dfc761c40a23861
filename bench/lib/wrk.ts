import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  socketErrors: string | undefined;
}

/** The path of wrk when it is installed. */
export function findWrk(): string | undefined {
  const result = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.trim() ? result.stdout.trim() : undefined;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** Reads requests/s, the 50 % and 99 % latencies and error lines from `wrk --latency` output. */
export function parseWrk(output: string): WrkResult | undefined {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const p50 = /^\s*50%\s+([\d.]+)(us|ms|s|m)\b/m.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\b/m.exec(output);
  if (!rps || !p50 || !p99) return undefined;
  return {
    rps: Math.round(Number(rps[1])),
    p50Ms: toMs(p50[1]!, p50[2]!),
    p99Ms: toMs(p99[1]!, p99[2]!),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: /Socket errors:.*$/m.exec(output)?.[0],
  };
}

/** GETs random `paths` with wrk (1 thread, `connections` connections) for a latency figure next to autocannon's. */
export function runWrk(
  wrk: string,
  options: {
    baseUrl: string;
    paths: string[];
    token: string;
    connections: number;
    seconds: number;
    dir: string;
  },
): WrkResult | undefined {
  const script = join(options.dir, 'wrk-paths.lua');
  writeFileSync(
    script,
    [
      `local paths = {${options.paths.map((p) => JSON.stringify(p)).join(',')}}`,
      `wrk.headers["Authorization"] = ${JSON.stringify(`Bearer ${options.token}`)}`,
      'request = function() return wrk.format("GET", paths[math.random(#paths)]) end',
    ].join('\n'),
  );
  const result = spawnSync(
    wrk,
    [
      '-t1',
      `-c${options.connections}`,
      `-d${Math.ceil(options.seconds)}s`,
      '--latency',
      '-s',
      script,
      options.baseUrl,
    ],
    { encoding: 'utf8', timeout: (options.seconds + 30) * 1000 },
  );
  return parseWrk(`${result.stdout}${result.stderr}`);
}
