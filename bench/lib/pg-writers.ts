import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Application } from '../../src/app/application.js';
import { saveDatabaseUrl } from '../../src/db/database-config.js';
import { WORKSPACE_NAME } from '../config.js';
import type { CpuReading } from './cpu.js';
import { login } from './http.js';
import { runLoad, type LoadResult } from './load.js';
import { startPim, type Server } from './processes.js';
import type { Row } from './report.js';
import { round } from './stats.js';

/**
 * Issue 34's PostgreSQL writers row: 50 connections of POST /api/product against one pim instance,
 * then 25 against each of two instances on the same database (two desktops in team mode). The
 * goal is that writers do not queue on one row, so two instances write at least as much as one.
 * Beside the throughput, how often a backend of the database waited for a lock (pg_stat_activity
 * sampled every 50 ms): the queue itself, whatever the machine's cores allow.
 */

const MEMBER = { username: 'bench-member', password: 'bench-member-password' } as const;

export interface PgWritersRun {
  rps: number;
  p50: number | undefined;
  p99: number | undefined;
  errors: number;
  /** Samples of pg_stat_activity: backends active, and of those, waiting for a lock (mean per sample). */
  active: number;
  lockWaiting: number;
  /** Cores used meanwhile by the first instance, this process, and everything else (PostgreSQL, the second instance, other work). */
  cpu?: CpuReading;
  /** The first instance's CPU time per request it answered, in µs. */
  serverCpuUs?: number;
}

export interface PgWritersResult {
  connections: number;
  seconds: number;
  one: PgWritersRun;
  two: PgWritersRun;
  failed?: string;
}

/** A second desktop on the same database: its own data folder, a user of its own, the bench workspace open. */
async function startSecondInstance(url: string): Promise<{ server: Server; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pim-bench-second-'));
  saveDatabaseUrl(dir, url);
  const prep = await Application.open({ dataDir: dir });
  try {
    await prep.settings.update(prep.ownerContext(), { 'rest.enabled': true });
    await prep.users.add(prep.ownerContext(), { ...MEMBER, role: 'ADMIN' });
    await prep.workspaces.open(prep.ownerContext(), { workspaceName: WORKSPACE_NAME });
  } finally {
    await prep.stop();
  }
  return { server: await startPim(dir, join(dir, 'pim.log')), dir };
}

/** Samples lock waits of the database's backends until stopped. */
function sampleLocks(url: string): { stop: () => Promise<{ active: number; lockWaiting: number }> } {
  const client = new pg.Client({ connectionString: url });
  let running = true;
  let samples = 0;
  let active = 0;
  let waiting = 0;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ active: string; waiting: string }>(
        `SELECT count(*) FILTER (WHERE state = 'active') AS active,
                count(*) FILTER (WHERE state = 'active' AND wait_event_type = 'Lock') AS waiting
           FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      samples++;
      active += Number(rows[0]!.active);
      waiting += Number(rows[0]!.waiting);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return {
        active: samples ? round(active / samples, 1) : 0,
        lockWaiting: samples ? round(waiting / samples, 1) : 0,
      };
    },
  };
}

function writes(
  first: { baseUrl: string; token: string; pid: number },
  tag: string,
  connections: number,
  seconds: number,
) {
  let n = 0;
  return runLoad({
    baseUrl: first.baseUrl,
    pid: first.pid,
    method: 'POST',
    connections,
    duration: seconds,
    // The second instance starts cold (its JIT too): a few seconds before either load counts.
    warmup: 3,
    headers: { authorization: `Bearer ${first.token}` },
    next: () => {
      n++;
      const body = { supplierPid: `PGW-${tag}-${n}`, name: `Schreiber ${n}`, language: 'deu' };
      return { path: '/api/product', body: JSON.stringify(body) };
    },
  });
}

function combine(loads: LoadResult[], locks: { active: number; lockWaiting: number }): PgWritersRun {
  return {
    rps: loads.reduce((s, l) => s + l.rps, 0),
    // Of two loads, the slower one's percentiles: what a writer of the team saw at worst.
    p50: Math.max(...loads.map((l) => l.p50 ?? 0)),
    p99: Math.max(...loads.map((l) => l.p99 ?? 0)),
    errors: loads.reduce((s, l) => s + l.non2xx + l.errors, 0),
    ...locks,
    cpu: loads[0]?.cpu,
    serverCpuUs: loads[0]?.serverCpuUs,
  };
}

export async function measurePgWriters(
  first: { baseUrl: string; token: string; pid: number },
  url: string,
  runId: string,
  seconds: number,
): Promise<PgWritersResult> {
  const connections = 50;
  const second = await startSecondInstance(url);
  try {
    const token = await login(second.server.baseUrl, MEMBER.username, MEMBER.password);
    let sampler = sampleLocks(url);
    const alone = await writes(first, `${runId}-one`, connections, seconds);
    const one = combine([alone], await sampler.stop());
    sampler = sampleLocks(url);
    const both = await Promise.all([
      writes(first, `${runId}-a`, connections / 2, seconds),
      writes(
        { baseUrl: second.server.baseUrl, token, pid: second.server.pid },
        `${runId}-b`,
        connections / 2,
        seconds,
      ),
    ]);
    const two = combine(both, await sampler.stop());
    const failed = one.errors || two.errors ? `${one.errors + two.errors} answers were not 201` : undefined;
    return { connections, seconds, one, two, failed };
  } finally {
    await second.server.stop();
    rmSync(second.dir, { recursive: true, force: true });
  }
}

export function pgWritersRows(result: PgWritersResult): Row[] {
  const ratio = result.one.rps ? round(result.two.rps / result.one.rps, 2) : 0;
  const row = (label: string, run: PgWritersRun, extra: string): Row => ({
    endpoint: `PostgreSQL, ${result.connections} concurrent writers (POST) on ${label}`,
    rps: run.rps,
    p50: run.p50,
    p99: run.p99,
    cpuUs: run.serverCpuUs,
    target: label === 'two instances' ? '≥ 1× one instance; no single hot row' : '—',
    verdict: result.failed ? 'ERRORS' : label === 'two instances' ? (ratio >= 1 ? 'met' : 'missed') : '—',
    note: [
      `${result.seconds} s; backends active ${run.active}, waiting for a lock ${run.lockWaiting} (mean of samples every 50 ms)`,
      extra,
      run.cpu &&
        `cores: first instance ${run.cpu.server}, bench ${run.cpu.bench}, PostgreSQL ${run.cpu.database}, other (second instance, other work) ${run.cpu.other}`,
      result.failed,
    ]
      .filter(Boolean)
      .join('; '),
  });
  return [row('one instance', result.one, ''), row('two instances', result.two, `${ratio}× one instance`)];
}
