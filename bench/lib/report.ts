import type { Target } from '../endpoints.js';

export type Verdict = 'met' | 'missed' | '—' | 'not available' | 'ERRORS' | 'failed';

/** One line of the results table. */
export interface Row {
  endpoint: string;
  rps?: number;
  ratio?: number;
  p50?: number;
  p99?: number;
  rssMb?: number;
  /** Server CPU time per request in µs. */
  cpuUs?: number;
  target: string;
  verdict: Verdict;
  /** Timed one request at a time: p50 is the median and p99 the slowest of a few requests. */
  sequential?: boolean;
  /** What else the reader needs: the reason it was not measured, sizes, error counts. */
  note?: string;
}

export function targetText(target: Target | undefined, connections: number): string {
  if (!target) return '—';
  const parts: string[] = [];
  if (target.minRatio !== undefined) parts.push(`≥ ${target.minRatio}×`);
  if (target.maxP99Ms !== undefined) parts.push(`p99 ≤ ${target.maxP99Ms} ms`);
  if (target.maxP50Ms !== undefined) parts.push(`p50 ≤ ${target.maxP50Ms} ms (${connections} conn.)`);
  if (target.maxCpuPerBare !== undefined) parts.push(`CPU ≤ ${target.maxCpuPerBare}× bare`);
  if (target.maxCpuPerRow) parts.push(`CPU ≤ ${target.maxCpuPerRow.factor}× ${target.maxCpuPerRow.label}`);
  return parts.join(', ');
}

export function judge(
  target: Target | undefined,
  figures: { ratio?: number; p50?: number; p99?: number; cpuUs?: number },
  /** CPU µs per request of the bare server and of the other rows, for CPU targets. */
  cpu: { bareUs?: number; ofRow?: (key: string) => number | undefined } = {},
): Verdict {
  if (!target) return '—';
  const checks: boolean[] = [];
  if (target.minRatio !== undefined) checks.push((figures.ratio ?? 0) >= target.minRatio);
  if (target.maxP99Ms !== undefined) checks.push((figures.p99 ?? Infinity) <= target.maxP99Ms);
  if (target.maxP50Ms !== undefined) checks.push((figures.p50 ?? Infinity) <= target.maxP50Ms);
  const cpuWithin = (limitUs: number | undefined) =>
    figures.cpuUs !== undefined && limitUs !== undefined && figures.cpuUs <= limitUs;
  if (target.maxCpuPerBare !== undefined) {
    checks.push(cpuWithin(cpu.bareUs === undefined ? undefined : cpu.bareUs * target.maxCpuPerBare));
  }
  if (target.maxCpuPerRow) {
    const other = cpu.ofRow?.(target.maxCpuPerRow.key);
    checks.push(cpuWithin(other === undefined ? undefined : other * target.maxCpuPerRow.factor));
  }
  return checks.every(Boolean) ? 'met' : 'missed';
}

const HEADERS = [
  'endpoint',
  'req/s',
  'ratio',
  'p50 ms',
  'p99 ms',
  'CPU µs/req',
  'peak RSS MB',
  'target',
  'result',
];
/** Columns aligned right (numbers). */
const NUMERIC = new Set([1, 2, 3, 4, 5, 6]);

const fmt = (value: number | undefined, digits = 2): string =>
  value === undefined || Number.isNaN(value)
    ? ''
    : value >= 100
      ? String(Math.round(value))
      : value.toFixed(digits);

function cells(row: Row): string[] {
  return [
    row.endpoint,
    row.rps === undefined ? '' : String(Math.round(row.rps)),
    row.ratio === undefined ? '' : row.ratio.toFixed(2),
    fmt(row.p50),
    fmt(row.p99),
    row.cpuUs === undefined ? '' : String(row.cpuUs),
    row.rssMb === undefined ? '' : String(row.rssMb),
    row.target,
    row.verdict === 'ERRORS' ? '!! ERRORS !!' : row.verdict,
  ];
}

/** The table for the terminal, with notes under it. */
export function textTable(rows: Row[]): string {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (NUMERIC.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.endpoint}: ${r.note}`);
  return [
    line(HEADERS),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.slice(1).map(line),
    '',
    ...notes,
  ].join('\n');
}

export function markdownTable(rows: Row[]): string {
  const escape = (c: string) => c.replace(/\|/g, '\\|');
  const lines = [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => (NUMERIC.has(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(escape).join(' | ')} |`),
  ];
  const notes = rows.filter((r) => r.note).map((r) => `- ${escape(r.endpoint)}: ${r.note}`);
  return [...lines, ...(notes.length ? ['', ...notes] : [])].join('\n');
}
