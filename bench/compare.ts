/**
 * `node --import tsx bench/compare.ts`: SQLite and PostgreSQL side by side, from the latest full
 * runs (bench/results/latest.json and latest-postgres.json), as a Markdown table for docs/performance.md.
 * Each backend's ratio is to the bare server measured in its own run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './lib/processes.js';
import type { Row } from './lib/report.js';
import type { Results } from './lib/results.js';

const dir = join(REPO_ROOT, 'bench', 'results');
const quick = process.argv.includes('--quick');
const read = (name: string): Results | undefined => {
  const file = join(dir, `${name}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Results) : undefined;
};
const sqlite = read(quick ? 'latest-quick' : 'latest');
const postgres = read(quick ? 'latest-quick-postgres' : 'latest-postgres');
if (!sqlite || !postgres) {
  console.error(
    'compare needs a complete run on each backend: npm run bench, then npm run bench -- --db postgres',
  );
  process.exit(1);
}

const fmt = (v: number | undefined) =>
  v === undefined ? '' : v >= 100 ? String(Math.round(v)) : v.toFixed(2);
const figures = (row: Row | undefined): string[] =>
  row
    ? [
        row.rps === undefined ? '' : String(Math.round(row.rps)),
        row.ratio === undefined ? '' : row.ratio.toFixed(2),
        fmt(row.p50),
        fmt(row.p99),
        row.cpuUs === undefined ? '' : String(row.cpuUs),
        row.verdict,
      ]
    : ['', '', '', '', '', 'not run'];
const labels = [...new Set([...sqlite.rows, ...postgres.rows].map((r) => r.endpoint))];
const head = ['endpoint', 'target', 'SQLite req/s', 'ratio', 'p50 ms', 'p99 ms', 'CPU µs', 'result'];
const pgHead = ['PostgreSQL req/s', 'ratio', 'p50 ms', 'p99 ms', 'CPU µs', 'result'];
const lines = [
  `SQLite: ${sqlite.startedAt.slice(0, 16).replace('T', ' ')} UTC, bare node:http ${sqlite.baseline.rps} req/s · ` +
    `PostgreSQL 15 on the same machine: ${postgres.startedAt.slice(0, 16).replace('T', ' ')} UTC, bare node:http ${postgres.baseline.rps} req/s`,
  '',
  `| ${[...head, ...pgHead].join(' | ')} |`,
  `|---|---|${[...head.slice(2), ...pgHead].map((h) => (h === 'result' ? '---' : '---:')).join('|')}|`,
  ...labels.map((label) => {
    const a = sqlite.rows.find((r) => r.endpoint === label);
    const b = postgres.rows.find((r) => r.endpoint === label);
    const target = (a ?? b)!.target;
    const pg = figures(b);
    // Team mode has targets of its own for some rows (issue 11): say which one PostgreSQL was judged by.
    if (b && a && b.target !== a.target) pg[5] = `${pg[5]} (${b.target})`;
    return `| ${[label, target, ...figures(a), ...pg].map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  }),
];
const out = join(dir, quick ? 'compare-quick.md' : 'compare.md');
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
