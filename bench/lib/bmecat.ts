import { spawnSync } from 'node:child_process';
import { createWriteStream, createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../endpoints.js';
import { CpuMeter } from './cpu.js';
import { dataOf, describe, send } from './http.js';
import { REPO_ROOT } from './processes.js';
import type { Row } from './report.js';
import { RssWatch } from './rss.js';
import { round } from './stats.js';

/**
 * Issue 35's rows: the benchmark catalogue exported as BMEcat 2005.1 over `GET /api/export`
 * (streamed to a file: time, products a second, the server's peak RSS), then the first products of
 * that file imported over `POST /api/import` into a new workspace, as a job (followed until it ends).
 */
export const BMECAT_TARGET = { exportPerSecond: 50_000, importPerSecond: 20_000, rssMb: 300 };

export interface BmecatExportResult {
  products: number;
  ms: number;
  bytes: number;
  rss: { beforeMb: number; peakMb: number };
  serverCores?: number;
  other?: number;
  failed?: string;
}

export async function measureBmecatExport(
  ctx: Context,
  pid: number,
  file: string,
): Promise<BmecatExportResult> {
  const meter = new CpuMeter(pid);
  const rss = new RssWatch(pid, 50);
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}/api/export?format=2005.1`, {
    headers: { authorization: `Bearer ${ctx.token}` },
  });
  if (response.status !== 200 || !response.body) {
    rss.stop();
    meter.stop();
    return {
      products: 0,
      ms: NaN,
      bytes: 0,
      rss: { beforeMb: 0, peakMb: 0 },
      failed: `${response.status} ${await response.text()}`,
    };
  }
  await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
  const ms = performance.now() - started;
  const cpu = meter.stop();
  const reading = rss.stop();
  const products = await countProducts(file);
  return {
    products,
    ms: round(ms, 0),
    bytes: statSync(file).size,
    rss: reading,
    serverCores: cpu?.server,
    other: cpu?.other,
  };
}

async function countProducts(file: string): Promise<number> {
  let count = 0;
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const text = carry + (chunk as string);
    count += text.split('<PRODUCT>').length - 1;
    carry = text.slice(-10);
    if (carry.includes('<')) carry = carry.slice(carry.lastIndexOf('<'));
    else carry = '';
  }
  return count;
}

/**
 * The first `limit` products of an export as a file of their own (the products end a line each; the
 * mappings are left out: the groups' tree stays, the products land without groups).
 */
export async function firstProducts(source: string, target: string, limit: number): Promise<void> {
  const out = createWriteStream(target);
  let count = 0;
  let rest = '';
  for await (const chunk of createReadStream(source, { encoding: 'utf8' })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('<PRODUCT_TO_CATALOGGROUP_MAP>')) continue;
      if (line.startsWith('<PRODUCT>')) {
        if (count >= limit) continue;
        count++;
      }
      if (!out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  out.end(rest);
  await new Promise<void>((r) => out.once('finish', () => r()));
}

export interface BmecatImportResult {
  products: number;
  ms: number;
  rss: { beforeMb: number; peakMb: number };
  other?: number;
  failed?: string;
}

/**
 * Imports `file` into a new workspace through POST /api/import and follows its job. The workspace
 * is created with `pim workspace create` on the server's data folder (REST creates none) and
 * opened over REST.
 */
export async function measureBmecatImport(
  ctx: Context,
  server: { pid: number; dataDir: string },
  file: string,
  workspace: string,
): Promise<BmecatImportResult> {
  const pid = server.pid;
  const fail = (failed: string): BmecatImportResult => ({
    products: 0,
    ms: NaN,
    rss: { beforeMb: 0, peakMb: 0 },
    failed,
  });
  const list = dataOf(await send(ctx.baseUrl, 'GET', { path: '/api/workspace' }, ctx.token)) as
    { id: number; active: boolean }[] | undefined;
  const benchWorkspace = list?.find((w) => w.active)?.id;
  if (benchWorkspace === undefined) return fail('the open workspace is not known');
  const created = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'pim.js'), '--data-dir', server.dataDir, 'workspace', 'create', workspace],
    { encoding: 'utf8' },
  );
  if (created.status !== 0) return fail(`pim workspace create: ${created.stderr.trim()}`);
  const all = dataOf(await send(ctx.baseUrl, 'GET', { path: '/api/workspace' }, ctx.token)) as
    { id: number; name: string }[] | undefined;
  const id = all?.find((w) => w.name === workspace)?.id;
  if (id === undefined) return fail(`the workspace ${workspace} was created but is not listed`);
  const opened = await send(
    ctx.baseUrl,
    'POST',
    { path: '/api/workspace/open', body: JSON.stringify({ workspaceId: id }) },
    ctx.token,
  );
  if (opened.status !== 200) return fail(`opening the workspace: ${describe(opened)}`);
  const meter = new CpuMeter(pid);
  const rss = new RssWatch(pid, 50);
  const started = performance.now();
  const upload = await fetch(`${ctx.baseUrl}/api/import?name=bench.xml`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/xml' },
    body: Readable.toWeb(createReadStream(file)) as never,
    duplex: 'half',
  } as RequestInit);
  const job = (await upload.json()) as { data?: { id: number } };
  if (upload.status !== 202 || !job.data) {
    rss.stop();
    meter.stop();
    return fail(`${upload.status} ${JSON.stringify(job).slice(0, 200)}`);
  }
  // Polled: the job's state is read over REST like any client would (there is nothing to await).
  for (;;) {
    const reply = await send(ctx.baseUrl, 'GET', { path: `/api/job/${job.data.id}` }, ctx.token);
    const state = dataOf(reply) as {
      state: string;
      report?: { products: number };
      error?: { message: string };
    };
    if (state.state === 'running' || state.state === 'queued') {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const ms = performance.now() - started;
    const cpu = meter.stop();
    const reading = rss.stop();
    // The rows after this one read the benchmark's workspace again.
    await send(
      ctx.baseUrl,
      'POST',
      { path: '/api/workspace/open', body: JSON.stringify({ workspaceId: benchWorkspace }) },
      ctx.token,
    );
    if (state.state !== 'succeeded') return fail(`job ${state.state}: ${state.error?.message ?? ''}`);
    return { products: state.report?.products ?? 0, ms: round(ms, 0), rss: reading, other: cpu?.other };
  }
}

function disturbed(other: number | undefined): string {
  return other !== undefined && other > 0.2 ? `DISTURBED: other processes used ${other} cores` : '';
}

export function bmecatExportRow(r: BmecatExportResult): Row {
  const perSecond = Number.isFinite(r.ms) ? Math.round(r.products / (r.ms / 1000)) : 0;
  const met = perSecond >= BMECAT_TARGET.exportPerSecond && r.rss.peakMb <= BMECAT_TARGET.rssMb;
  return {
    endpoint: 'GET /api/export: the catalogue as BMEcat 2005.1',
    rps: perSecond,
    p50: r.ms,
    rssMb: r.rss.peakMb,
    sequential: true,
    target: `≥ ${BMECAT_TARGET.exportPerSecond.toLocaleString('en')} products/s, RSS ≤ ${BMECAT_TARGET.rssMb} MB`,
    verdict: r.failed ? 'ERRORS' : met ? 'met' : 'missed',
    note: [
      `req/s column: products/s; p50: the whole export in ms; ${r.products} products, ${round(r.bytes / 1e6, 1)} MB; RSS ${r.rss.beforeMb} MB before`,
      r.failed,
      disturbed(r.other),
    ]
      .filter(Boolean)
      .join('; '),
  };
}

export function bmecatImportRow(r: BmecatImportResult): Row {
  const perSecond = Number.isFinite(r.ms) ? Math.round(r.products / (r.ms / 1000)) : 0;
  const met = perSecond >= BMECAT_TARGET.importPerSecond && r.rss.peakMb <= BMECAT_TARGET.rssMb;
  return {
    endpoint: 'POST /api/import: BMEcat into a new workspace (job)',
    rps: perSecond,
    p50: r.ms,
    rssMb: r.rss.peakMb,
    sequential: true,
    target: `≥ ${BMECAT_TARGET.importPerSecond.toLocaleString('en')} products/s, RSS ≤ ${BMECAT_TARGET.rssMb} MB`,
    verdict: r.failed ? 'ERRORS' : met ? 'met' : 'missed',
    note: [
      `req/s column: products/s; p50: upload and job in ms; ${r.products} products of the export above; RSS ${r.rss.beforeMb} MB before`,
      r.failed,
      disturbed(r.other),
    ]
      .filter(Boolean)
      .join('; '),
  };
}
