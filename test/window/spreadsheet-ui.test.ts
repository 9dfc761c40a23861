import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileChooser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../helpers/axe.js';
import { parseCsvStrict } from '../helpers/csv.js';
import type { TestServer } from '../helpers/server.js';
import {
  chooseMenu,
  chooseMenuByKeyboard,
  loginInWindow,
  windowPagePerTest,
} from '../helpers/window-page.js';
import { readXlsx } from '../helpers/xlsx.js';

/**
 * File › Export view… and File › Import… of spreadsheets in the window (issue 36 points 6 and 7):
 * the grid's filtered view and its picked rows downloaded and read back; a CSV with one bad cell
 * refused with its row and column and nothing written, then a good one whose change the grid shows;
 * German at 400 px with the keyboard only. What a VIEWER is offered: window-rights-ui.test.ts.
 */
let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

// The README's screenshots are rewritten only when asked (PIM_SCREENSHOTS=1), as window-ui's.
const SCREENSHOTS =
  process.env.PIM_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'pim-screenshots-'))}/`;

const count = () => page.getByTestId('grid-count').textContent();
const focused = (locator: ReturnType<Page['getByRole']>) =>
  locator.evaluate((el) => el === el.ownerDocument.activeElement);

// One REST login per test (a login hashes the password on purpose slowly).
let token: { server: TestServer; value: string } | undefined;

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (token?.server !== server) token = { server, value: await server.login() };
  const res = await server.request<T>(method, path, { token: token.value, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data as T;
}

/** A file of the test's own in the server's data folder. */
function fileOf(name: string, text: string): string {
  const path = join(server.dataDir, name);
  writeFileSync(path, text);
  return path;
}

async function names(prefix: string): Promise<Record<string, string>> {
  const products = await rest<{ supplierPid: string; name: string }[]>(
    'GET',
    `/api/product?all=true&q=${prefix}`,
  );
  return Object.fromEntries(products.map((p) => [p.supplierPid, p.name]));
}

/** The grid's visible columns as a spreadsheet names them (export-view-columns.ts). */
const GRID_HEADER = [
  'id',
  'supplierPid',
  'short[deu]',
  'short[eng]',
  'ean',
  'manufacturerPid',
  'masterSupplierPid',
  'groupId',
  'updatedAt',
];

describe('File › Export view…', () => {
  it('downloads the filtered view, then the picked rows, with the grid’s columns, and reads back', async () => {
    const drill = await rest<{ id: number }>('POST', '/api/product', { supplierPid: 'SV-1', name: 'Bohrer' });
    await rest('PUT', `/api/product/${drill.id}/texts/short/eng`, { value: 'Drill' });
    const saw = await rest<{ id: number }>('POST', '/api/product', { supplierPid: 'SV-2', name: '=Säge' });
    await rest('POST', '/api/product', { supplierPid: 'OTHER-1', name: 'Hammer' });
    await loginInWindow(page, server);
    await page.goto(`${server.windowUrl}/#/?q=SV-`);
    await expect.poll(count).toBe('2 products');

    await chooseMenu(page, 'File', 'Export view…');
    const dialog = page.getByRole('dialog', { name: 'Export view' });
    expect(await dialog.getByTestId('export-view-what').textContent()).toBe(
      "Exports all 2 products matching the grid's search and filters.",
    );
    await dialog.getByLabel('CSV', { exact: true }).check();
    await dialog.getByLabel('Byte-order mark for Excel').check();
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'English (eng)' }).isChecked()).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}export-view-dialog.png` });
    await expectAccessible(page, 'the export dialog');
    const filtered = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const csvFile = await filtered;
    expect(csvFile.suggestedFilename()).toBe('Test.csv');
    const bytes = readFileSync(await csvFile.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsvStrict(bytes.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual(GRID_HEADER);
    expect(rows.slice(1).map((row) => row.slice(1, 4))).toEqual([
      ['SV-1', 'Bohrer', 'Drill'],
      ['SV-2', "'=Säge", ''],
    ]);
    await expect.poll(() => dialog.count()).toBe(0);

    // One row picked: only it and, asked in the dialog, its variant (the grid hides variants); as
    // XLSX (the default), German texts only.
    await rest('POST', `/api/product/${saw.id}/variants`, { supplierPid: 'VAR-2', name: 'Sägeblatt' });
    await page.getByRole('row').filter({ hasText: 'SV-2' }).click();
    await expect.poll(() => page.getByTestId('selection-size').textContent()).toBe('1 selected');
    await chooseMenu(page, 'File', 'Export view…');
    expect(await dialog.getByTestId('export-view-what').textContent()).toBe(
      'Exports the 1 selected product.',
    );
    await dialog.getByRole('checkbox', { name: 'Include their variants' }).check();
    await dialog.getByRole('checkbox', { name: 'English (eng)' }).uncheck();
    const picked = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const xlsxFile = await picked;
    expect(xlsxFile.suggestedFilename()).toBe('Test.xlsx');
    const sheet = readXlsx(readFileSync(await xlsxFile.path())).rows;
    expect(sheet[0]).toEqual(GRID_HEADER.filter((name) => name !== 'short[eng]'));
    expect(sheet.slice(1).map((row) => row.slice(1, 3))).toEqual([
      ['SV-2', '=Säge'],
      ['VAR-2', 'Sägeblatt'],
    ]);

    // Asked from another view: the catalogue, which holds the view, is shown and opens the dialog.
    await chooseMenu(page, 'Window', 'REST API Monitor');
    await expect.poll(() => page.getByTestId('grid-count').count()).toBe(0);
    await chooseMenu(page, 'File', 'Export view…');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  }, 60_000);
});

describe('File › Import… of a spreadsheet', () => {
  it('refuses a CSV with a bad cell by its row and column, writing nothing; a good one shows in the grid', async () => {
    await rest('POST', '/api/product', { supplierPid: 'SI-1', name: 'Alt' });
    await loginInWindow(page, server);
    await page.goto(`${server.windowUrl}/#/?q=SI-`);
    await expect.poll(count).toBe('1 product');
    const dialog = page.getByRole('dialog', { name: 'Import', exact: true });
    const outcome = dialog.getByTestId('import-outcome');

    await chooseMenu(page, 'File', 'Import…');
    const bad = fileOf(
      'bad.csv',
      `supplierPid,short[deu],ean\r\nSI-1,Neu,\r\nSI-2,Dazu,${'1'.repeat(200)}\r\n`,
    );
    await dialog.locator('input[type="file"]').setInputFiles(bad);
    // A spreadsheet has no mode: rows are created or updated.
    await expect.poll(() => dialog.getByTestId('spreadsheet-note').isVisible()).toBe(true);
    expect(await dialog.getByLabel('Replace').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect
      .poll(() => outcome.textContent(), { timeout: 30_000 })
      .toContain('The import of bad.csv failed');
    expect(await dialog.getByTestId('import-error').textContent()).toMatch(/^Row 3, column C \(ean\): /);
    expect(await outcome.textContent()).toContain('Nothing was written.');
    expect(await names('SI-')).toEqual({ 'SI-1': 'Alt' });

    await dialog.getByRole('button', { name: 'Import another file' }).click();
    const good = fileOf('good.csv', 'supplierPid,short[deu]\r\nSI-1,Neu\r\nSI-2,Dazu\r\n');
    await dialog.locator('input[type="file"]').setInputFiles(good);
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => outcome.textContent(), { timeout: 30_000 }).toContain('good.csv was imported.');
    const counts = await dialog.getByTestId('import-counts').innerText();
    expect(counts).toMatch(/Rows in the file\s+2/);
    expect(counts).toMatch(/Created\s+1/);
    expect(counts).toMatch(/Changed\s+1/);
    expect(counts).toMatch(/Unchanged\s+0/);
    await page.screenshot({ path: `${SCREENSHOTS}import-sheet-report.png` });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect.poll(count).toBe('2 products');
    await expect
      .poll(() =>
        page
          .getByRole('grid', { name: 'Products' })
          .getByRole('row')
          .filter({ hasText: 'SI-1' })
          .textContent(),
      )
      .toContain('Neu');
  }, 60_000);
});

describe('spreadsheets in German at 400 px', () => {
  it('exports the view and dry-runs an import with the keyboard only', async () => {
    // Listened for from the start: Playwright takes file choosers over once someone listens.
    const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
    await rest('POST', '/api/product', { supplierPid: 'SK-1', name: 'Eins' });
    await rest('POST', '/api/product', { supplierPid: 'SK-2', name: 'Zwei' });
    await page.setViewportSize({ width: 400, height: 800 });
    await loginInWindow(page, server);
    await page.locator('label', { hasText: 'Deutsch' }).click();
    await page.goto(`${server.windowUrl}/#/?q=SK-`);
    await expect.poll(count).toBe('2 Produkte');
    const file = page.getByRole('button', { name: 'Datei', exact: true });

    await chooseMenuByKeyboard(page, file, page.getByRole('menuitem', { name: 'Ansicht exportieren…' }));
    const exporting = page.getByRole('dialog', { name: 'Ansicht exportieren' });
    await expect.poll(() => focused(exporting.getByRole('radio', { name: 'XLSX' }))).toBe(true);
    const box = (await exporting.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    expect(await page.locator('html').evaluate((html) => html.scrollWidth)).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SCREENSHOTS}export-view-de-400.png` });
    await expectAccessible(page, 'the export dialog in German at 400 px');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const rows = readXlsx(readFileSync(await (await download).path())).rows;
    expect(rows.slice(1).map((row) => row[1])).toEqual(['SK-1', 'SK-2']);
    await expect.poll(() => exporting.count()).toBe(0);
    // The keyboard goes on where it was: the menu that opened the dialog.
    await expect.poll(() => file.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await chooseMenuByKeyboard(page, file, page.getByRole('menuitem', { name: 'Importieren…' }));
    const importing = page.getByRole('dialog', { name: 'Importieren', exact: true });
    const picker = importing.getByRole('button', { name: /^Datei/ });
    await expect.poll(() => focused(picker)).toBe(true);
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(fileOf('sk.csv', 'supplierPid,short[deu]\r\nSK-1,Eins\r\nSK-2,Zwo\r\n'));
    const dryRun = importing.getByRole('checkbox', { name: /^Probelauf/ });
    await expect
      .poll(async () => {
        if (await focused(dryRun)) return true;
        await page.keyboard.press('Tab');
        return false;
      })
      .toBe(true);
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    const outcome = importing.getByTestId('import-outcome');
    await expect.poll(() => outcome.textContent(), { timeout: 30_000 }).toContain('Probelauf von sk.csv');
    const counts = await importing.getByTestId('import-counts').innerText();
    expect(counts).toMatch(/Geändert\s+1/);
    expect(counts).toMatch(/Unverändert\s+1/);
    expect(await names('SK-')).toEqual({ 'SK-1': 'Eins', 'SK-2': 'Zwei' });
    const close = importing.getByRole('button', { name: 'Schließen', exact: true }).last();
    await expect.poll(() => focused(close)).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}import-sheet-de-400.png` });
    await page.keyboard.press('Enter');
    await expect.poll(() => importing.count()).toBe(0);
  }, 60_000);
});
