import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { svgChart } from './chart.js';
import type { MachineInfo } from './machine.js';
import { REPO_ROOT } from './processes.js';
import { markdownTable, type Row } from './report.js';

export interface Results {
  mode: 'full' | 'quick';
  db: 'sqlite' | 'postgres';
  startedAt: string;
  totalSeconds: number;
  machine: MachineInfo;
  baseline: { rps: number; runs: unknown[] };
  rows: Row[];
  disturbance: { baselineDrift: number; disturbed: string[]; loadAverage: number[] };
  [more: string]: unknown;
}

const DIR = join(REPO_ROOT, 'bench', 'results');

function subtitle(r: Results): string[] {
  const m = r.machine;
  return [
    `${r.startedAt.slice(0, 16).replace('T', ' ')} UTC · ${r.mode} run on ${r.db === 'postgres' ? 'PostgreSQL' : 'SQLite'} · ${m.cpus} × ${m.cpuModel} · node ${m.node}`,
    `bare node:http ${r.baseline.rps} req/s at 50 connections · commit ${m.commit ?? '?'}${m.srcDirty ? ' (+ local changes)' : ''}`,
    ...(r.disturbance.disturbed.length || r.disturbance.baselineDrift > 0.15
      ? ['DISTURBED: other processes used the CPU during this run (see the JSON): rerun on a quiet machine']
      : []),
  ];
}

/**
 * bench/results/<timestamp>-<mode>.json, and latest.{json,svg,md} (docs/performance.md shows these).
 * A quick run writes latest-quick.* instead, so it never replaces the figures of a full run, and a
 * run on PostgreSQL latest[-quick]-postgres.*;
 * a partial run (--only, --duration, --profile) writes only its timestamped JSON.
 */
export function writeResults(results: Results, complete: boolean): string[] {
  mkdirSync(DIR, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const pg = results.db === 'postgres' ? '-postgres' : '';
  const latest = `${results.mode === 'full' ? 'latest' : 'latest-quick'}${pg}`;
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const title = `pim REST API: throughput as a ratio to bare node:http (${results.mode})`;
  const md = [
    `Benchmark (\`npm run bench${results.mode === 'quick' || pg ? ' --' : ''}${results.mode === 'quick' ? ' --quick' : ''}${pg ? ' --db postgres' : ''}\`), ${subtitle(results).join(' · ')}:`,
    '',
    markdownTable(results.rows),
    '',
  ].join('\n');
  const files: [string, string][] = [
    [`${stamp}-${results.mode}${pg}${complete ? '' : '-partial'}.json`, json],
  ];
  if (complete) {
    files.push(
      [`${latest}.json`, json],
      [`${latest}.svg`, svgChart(results.rows, title, subtitle(results))],
      [`${latest}.md`, md],
    );
  }
  for (const [name, content] of files) writeFileSync(join(DIR, name), content);
  return files.map(([name]) => relative(REPO_ROOT, join(DIR, name)));
}
