import { describe, expect, it } from 'vitest';
import { upsertProducts } from '../../src/domain/products/product-bulk.service.js';
import { exportBmecat, newExportReport } from '../../src/interchange/bmecat/bmecat-export.js';
import { openSpreadsheetExport } from '../../src/interchange/spreadsheet/spreadsheet-export.js';
import { workspaceApplicationPerTest } from '../helpers/workspace-app.js';

/**
 * The exports give other requests turns of the event loop while they make the file. A consumer that
 * takes every chunk at once (a local client reading as fast as the file is written, here a bare
 * loop) never makes the stream wait, and on SQLite, whose reads run on the event loop's thread,
 * an export of 100,000 products kept the loop for its whole length: a GET by id waited 3.9 s for a
 * CSV, 5.8 s for a BMEcat file. What counts is whether the loop turns (a setImmediate runs) while
 * the file is made, never how long anything takes.
 */

const context = workspaceApplicationPerTest('pim-export-turns-', 'Turns');

/** Enough products that making the file takes many turns' worth of work (fair-turns.ts: 10 ms). */
const PRODUCTS = 3_000;

async function fillCatalogue(): Promise<void> {
  for (let start = 0; start < PRODUCTS; start += 1_000) {
    const documents = Array.from({ length: 1_000 }, (_, i) => ({
      supplierPid: `T-${start + i}`,
      shortTexts: [
        { lang: 'deu', value: `Klemme ${start + i} für Hutschiene, grau, mit Schraubanschluss` },
        { lang: 'eng', value: `Terminal ${start + i} for DIN rail, grey, with screw connection` },
      ],
      longTexts: [{ lang: 'deu', value: 'Reihenklemme mit Schraubanschluss. '.repeat(8) }],
      features: Array.from({ length: 6 }, (_, f) => ({
        ftidref: `EF00${f}`,
        funit: 'mm',
        values: [{ lang: 'deu', value: String((start + i) * (f + 1)) }],
      })),
    }));
    const results = await upsertProducts(context.owner(), documents);
    expect(results.every((r) => r.status === 201)).toBe(true);
  }
}

/** Takes every chunk as it comes; counts the turns of the event loop meanwhile. */
async function turnsWhileReading(chunks: AsyncIterable<unknown>): Promise<{ turns: number; chunks: number }> {
  let turns = 0;
  let reading = true;
  const turn = () => {
    if (!reading) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  let count = 0;
  for await (const _chunk of chunks) count++;
  reading = false;
  return { turns, chunks: count };
}

describe('an export gives other requests turns while it makes the file', () => {
  it('CSV and XLSX', async () => {
    await fillCatalogue();
    for (const format of ['csv', 'xlsx'] as const) {
      const file = await openSpreadsheetExport(context.owner(), { format, select: {} });
      const seen = await turnsWhileReading(file.chunks);
      expect(file.report.products, format).toBe(PRODUCTS);
      expect(
        seen.turns,
        `${format}: turns of the event loop while ${seen.chunks} chunks were made`,
      ).toBeGreaterThan(1);
    }
  });

  it('BMEcat', async () => {
    await fillCatalogue();
    const report = newExportReport('2005.1');
    const seen = await turnsWhileReading(exportBmecat(context.owner(), { format: '2005.1' }, report));
    expect(report.products).toBe(PRODUCTS);
    expect(seen.turns, `turns of the event loop while ${seen.chunks} chunks were made`).toBeGreaterThan(1);
  });
});
