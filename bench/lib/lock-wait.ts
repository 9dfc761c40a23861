import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { dataOf, describe, send } from './http.js';
import type { Row } from './report.js';
import { round } from './stats.js';

export const LOCK_WAIT_TARGET_P99_MS = 50;
/** Past this after the release, the waiting write did not answer "once the lock is free". */
export const LOCK_WAIT_TARGET_WRITE_MS = 100;

export interface LockWaitResult {
  holdMs: number;
  /** GETs by id sent while the other process held the lock. */
  requests: number;
  p50: number;
  p99: number;
  maxMs: number;
  /** The same clients for as long without the lock, just before: what the machine gives now. */
  unlocked: { requests: number; p50: number; p99: number };
  /** The POST sent at the start of the hold: its status and when it answered, relative to the release. */
  writeStatus: number;
  writeAfterReleaseMs: number;
  failed?: string;
}

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

/**
 * Another process holding the workspace's write lock: BEGIN IMMEDIATE, `holdMs`, COMMIT (as
 * `pim mcp` or a CLI command in a long write would), saying when it held and when it released.
 */
const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
const now = () => performance.timeOrigin + performance.now();
db.exec('BEGIN IMMEDIATE');
console.log(JSON.stringify({ held: now() }));
setTimeout(() => {
  db.exec('COMMIT');
  console.log(JSON.stringify({ released: now() }));
  db.close();
}, Number(process.argv[3]));
`;

function startHolder(file: string, holdMs: number): { held: Promise<number>; released: Promise<number> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', HOLDER, driver, file, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const events = new Map<string, (at: number) => void>();
  const event = (name: string) => new Promise<number>((resolve) => events.set(name, resolve));
  const held = event('held');
  const released = event('released');
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [name, at] = Object.entries(JSON.parse(line) as Record<string, number>)[0]!;
    events.get(name)?.(at);
  });
  const failed = new Promise<never>((_, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the lock holder exited ${code}: ${stderr}`));
    }),
  );
  return { held: Promise.race([held, failed]), released: Promise.race([released, failed]) };
}

/** The active workspace's SQLite file, as a user would find it: in the folder the API names. */
async function workspaceFile(baseUrl: string, token: string): Promise<string> {
  const reply = await send(baseUrl, 'GET', { path: '/api/workspace' }, token);
  const active = (dataOf(reply) as { rootpath: string; active: boolean }[] | undefined)?.find(
    (w) => w.active,
  );
  if (!active) throw new Error(`no active workspace: ${describe(reply)}`);
  return join(active.rootpath, 'workspace.sqlite');
}

/** Latencies of GET /api/product/{id} from 4 clients, one request after another, while `going()`. */
async function readWhile(
  baseUrl: string,
  token: string,
  randomId: () => number,
  going: () => boolean,
): Promise<{ latencies: number[]; failed?: string }> {
  const latencies: number[] = [];
  let failed: string | undefined;
  const client = async () => {
    while (going()) {
      const t0 = now();
      const response = await fetch(`${baseUrl}/api/product/${randomId()}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed ??= `GET by id answered ${response.status}`;
      latencies.push(now() - t0);
    }
  };
  await Promise.all([client(), client(), client(), client()]);
  latencies.sort((a, b) => a - b);
  return { latencies, failed };
}

function quantile(sorted: number[], q: number): number {
  return round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN, 1);
}

/**
 * Issue 34: while another process holds the write lock for `holdMs`, 4 clients ask GET
 * /api/product/{id} one request after another, and one POST /api/product sent at the start of
 * the hold waits for the lock. The latencies of the GETs sent during the hold, and when the POST
 * answered relative to the release (a server that waits inside SQLite answers nothing meanwhile).
 * The same reads for as long without the lock, just before, show what the machine gives now.
 */
export async function measureLockWait(
  baseUrl: string,
  token: string,
  randomId: () => number,
  options: { holdMs: number; runId: string },
): Promise<LockWaitResult> {
  const freeUntil = now() + options.holdMs;
  const unlocked = await readWhile(baseUrl, token, randomId, () => now() < freeUntil);
  const holder = startHolder(await workspaceFile(baseUrl, token), options.holdMs);
  await holder.held;
  let holding = true;
  const released = holder.released.then((at) => {
    holding = false;
    return at;
  });
  const write = send(
    baseUrl,
    'POST',
    { path: '/api/product', body: JSON.stringify({ supplierPid: `LOCK-WAIT-${options.runId}`, name: 'x' }) },
    token,
  ).then((reply) => ({ reply, at: now() }));
  const [releasedAt, written, locked] = await Promise.all([
    released,
    write,
    readWhile(baseUrl, token, randomId, () => holding),
  ]);
  const { latencies } = locked;
  let failed = unlocked.failed ?? locked.failed;
  if (written.reply.status !== 201) failed ??= `the waiting POST answered ${describe(written.reply)}`;
  return {
    holdMs: options.holdMs,
    requests: latencies.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    maxMs: round(latencies[latencies.length - 1] ?? NaN, 1),
    unlocked: {
      requests: unlocked.latencies.length,
      p50: quantile(unlocked.latencies, 0.5),
      p99: quantile(unlocked.latencies, 0.99),
    },
    writeStatus: written.reply.status,
    writeAfterReleaseMs: round(written.at - releasedAt, 1),
    failed,
  };
}

export function lockWaitRow(result: LockWaitResult): Row {
  const writeInTime =
    result.writeStatus === 201 &&
    result.writeAfterReleaseMs >= 0 &&
    result.writeAfterReleaseMs <= LOCK_WAIT_TARGET_WRITE_MS;
  return {
    endpoint: `reads while another process holds the write lock for ${result.holdMs / 1000} s`,
    p50: result.p50,
    p99: result.p99,
    sequential: true,
    target: `p99 ≤ ${LOCK_WAIT_TARGET_P99_MS} ms; the write ≤ ${LOCK_WAIT_TARGET_WRITE_MS} ms after the release`,
    verdict: result.failed
      ? 'ERRORS'
      : result.p99 <= LOCK_WAIT_TARGET_P99_MS && writeInTime
        ? 'met'
        : 'missed',
    note: [
      `GET by id from 4 clients: ${result.requests} requests during the hold; slowest ${result.maxMs} ms`,
      `without the lock just before: ${result.unlocked.requests} requests, p50 ${result.unlocked.p50} ms, p99 ${result.unlocked.p99} ms`,
      `the POST waiting for the lock answered ${result.writeStatus} ${result.writeAfterReleaseMs} ms after the release`,
      result.failed,
    ]
      .filter(Boolean)
      .join('; '),
  };
}
