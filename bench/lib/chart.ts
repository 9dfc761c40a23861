import type { Row } from './report.js';

const COLOURS: Record<string, string> = {
  met: '#2e7d32',
  missed: '#c62828',
  ERRORS: '#ef6c00',
  '—': '#607d8b',
};

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Ratio to the baseline and the target ratio of a row, from its target text ("≥ 0.65×"). */
function targetRatio(row: Row): number | undefined {
  const match = /≥ ([\d.]+)×/.exec(row.target);
  return match ? Number(match[1]) : undefined;
}

/**
 * Horizontal bars of the ratio to bare node:http per endpoint, the target marked by a
 * black tick; rows without a ratio (full list, group tree, unavailable) as text lines below.
 */
export function svgChart(rows: Row[], title: string, subtitle: string[]): string {
  const bars = rows.filter((r) => r.ratio !== undefined);
  const others = rows.filter((r) => r.ratio === undefined);
  const width = 820;
  const left = 270;
  const barWidth = 440;
  const top = 56 + subtitle.length * 18;
  const step = 30;
  const scaleMax = Math.max(1, ...bars.map((r) => Math.max(r.ratio!, targetRatio(r) ?? 0))) * 1.05;
  const x = (ratio: number) => left + (ratio / scaleMax) * barWidth;
  const textTop = top + bars.length * step + 40;
  const height = textTop + others.length * 20 + 30;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="13">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="16" font-weight="bold">${escape(title)}</text>`,
    ...subtitle.map((line, i) => `<text x="16" y="${46 + i * 18}" fill="#555">${escape(line)}</text>`),
  ];
  for (const tick of [0, 0.25, 0.5, 0.75].filter((t) => t <= scaleMax)) {
    const tx = x(tick);
    out.push(`<line x1="${tx}" y1="${top - 6}" x2="${tx}" y2="${top + bars.length * step}" stroke="#ddd"/>`);
    out.push(
      `<text x="${tx}" y="${top + bars.length * step + 16}" text-anchor="middle" fill="#777">${tick}</text>`,
    );
  }
  const base = x(1);
  out.push(
    `<line x1="${base}" y1="${top - 10}" x2="${base}" y2="${top + bars.length * step}" stroke="#333" stroke-dasharray="4 3"/>`,
  );
  out.push(
    `<text x="${base + 4}" y="${top + bars.length * step + 16}" fill="#333">1 = bare node:http</text>`,
  );
  bars.forEach((row, i) => {
    const y = top + i * step;
    const colour = COLOURS[row.verdict] ?? '#607d8b';
    out.push(`<text x="${left - 8}" y="${y + 15}" text-anchor="end">${escape(row.endpoint)}</text>`);
    out.push(
      `<rect x="${left}" y="${y + 3}" width="${Math.max(1, x(row.ratio!) - left)}" height="18" fill="${colour}"/>`,
    );
    const label = `${row.ratio!.toFixed(2)}× (${Math.round(row.rps ?? 0)} req/s)${row.verdict === 'ERRORS' ? ' ERRORS' : ''}`;
    const target = targetRatio(row);
    const labelX = Math.max(x(row.ratio!), target === undefined ? 0 : x(target)) + 6;
    out.push(`<text x="${labelX}" y="${y + 16}" fill="#222">${escape(label)}</text>`);
    if (target !== undefined) {
      out.push(
        `<line x1="${x(target)}" y1="${y}" x2="${x(target)}" y2="${y + 24}" stroke="#000" stroke-width="3"/>`,
      );
    }
  });
  others.forEach((row, i) => {
    const [mid, high] = row.sequential ? ['median', 'slowest'] : ['p50', 'p99'];
    const figures = [
      row.p50 !== undefined ? `${mid} ${Math.round(row.p50 * 10) / 10} ms` : '',
      row.p99 !== undefined ? `${high} ${Math.round(row.p99 * 10) / 10} ms` : '',
      row.rssMb !== undefined ? `peak RSS ${row.rssMb} MB` : '',
    ].filter(Boolean);
    const text = `${row.endpoint}: ${figures.join(', ') || row.note || ''} — target ${row.target}: ${row.verdict}`;
    const colour = COLOURS[row.verdict] ?? '#555';
    out.push(`<text x="16" y="${textTop + i * 20}" fill="${colour}">${escape(text.slice(0, 130))}</text>`);
  });
  out.push(
    `<text x="16" y="${height - 10}" fill="#777" font-size="11">Black tick: target ratio. Green met, red missed, orange non-2xx answers, grey no target.</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
