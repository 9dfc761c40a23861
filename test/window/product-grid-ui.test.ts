import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';
import { expectAccessible } from '../helpers/axe.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));
const SHOTS = shotsDir('grid');

/** `count` products P-00001… through REST's bulk upsert (1,000 a call), names "Produkt N" in German. */
async function seed(
  count: number,
  extra: (n: number) => Record<string, unknown> = () => ({}),
): Promise<string> {
  const token = await server.login();
  for (let start = 1; start <= count; start += 1000) {
    const docs = [];
    for (let n = start; n < Math.min(start + 1000, count + 1); n++) {
      docs.push({
        supplierPid: `P-${String(n).padStart(5, '0')}`,
        name: `Produkt ${n}`,
        language: 'deu',
        ...extra(n),
      });
    }
    const res = await server.request('POST', '/api/product/bulk', { token, body: docs });
    expect(res.status).toBe(200);
  }
  return token;
}

const grid = () => page.getByRole('grid', { name: 'Products' });
const count = () => page.getByTestId('grid-count').textContent();
/** The supplier PIDs of the rows in the DOM, top to bottom, once loaded. */
const shownPids = () =>
  grid()
    .getByRole('row')
    .evaluateAll((rows) =>
      rows
        .filter((row) => row.getAttribute('aria-rowindex') !== '1')
        .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')))
        .map((row) => row.querySelectorAll('[role="gridcell"]')[1]?.textContent ?? ''),
    );
const hash = () => new URL(page.url()).hash;

describe('the product grid', () => {
  it('shows every product with only the rows in view in the DOM, and the rows anywhere the scrollbar is dropped', async () => {
    await seed(2000);
    await loginInWindow(page, server);
    await expect.poll(count).toBe('2,000 products');
    for (const name of [
      'ID',
      'Supplier PID',
      'Name',
      'EAN',
      'Manufacturer PID',
      'Variants',
      'Group',
      'Updated',
    ]) {
      expect(await grid().getByRole('columnheader', { name, exact: true }).count()).toBe(1);
    }
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00001');
    expect((await shownPids()).length).toBeLessThan(80);
    expect(await grid().getAttribute('aria-rowcount')).toBe('2001');
    // The scrollbar dropped in the middle: the rows there, fetched by position.
    await grid().evaluate((el) => (el.scrollTop = (el.scrollHeight - el.clientHeight) / 2));
    await expect.poll(async () => (await shownPids()).filter((pid) => pid !== '')).toContain('P-01000');
    const middle = (await shownPids()).filter((pid) => pid !== '');
    // Consecutive products, in order, none missing.
    const numbers = middle.map((pid) => Number(pid.slice(2)));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    await page.screenshot({ path: `${SHOTS}/grid-middle.png` });
    await expectAccessible(page, 'grid');
  }, 60_000);

  it('searches and filters with the count, keeps them in the address, and Back and Reload restore them', async () => {
    await seed(40, (n) => (n % 10 === 0 ? { shortTexts: [{ lang: 'eng', value: `Drill ${n}` }] } : {}));
    await loginInWindow(page, server);
    await expect.poll(count).toBe('40 products');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('P-0001');
    await expect.poll(count).toBe('10 products');
    expect(await hash()).toBe('#/?q=P-0001');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('drill');
    await expect.poll(count).toBe('4 products');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('');
    await expect.poll(count).toBe('40 products');
    // A filter: has a short text in English.
    await page.getByTestId('grid-filters').click();
    await page.getByLabel('Short text language').fill('eng');
    await page
      .getByRole('textbox', { name: 'Short text in that language' })
      .or(page.getByRole('combobox', { name: 'Short text in that language' }))
      .click();
    await page.getByRole('option', { name: 'Lacks' }).click();
    await expect.poll(count).toBe('36 products');
    expect(await hash()).toContain('text=lacks');
    await page.screenshot({ path: `${SHOTS}/grid-filters.png` });
    await page.keyboard.press('Escape');
    await page.reload();
    await expect.poll(count).toBe('36 products');
    expect(await page.getByText('Lacks a short text in eng').count()).toBe(1);
    await page.goBack();
    await expect.poll(count).toBe('40 products');
  });

  it('sorts by a column both ways, and remembers columns and sort for the user on another machine', async () => {
    await seed(30);
    await loginInWindow(page, server);
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00001');
    await grid().getByRole('button', { name: 'Supplier PID' }).click();
    await grid().getByRole('button', { name: 'Supplier PID' }).click();
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00030');
    expect(await grid().getByRole('columnheader', { name: 'Supplier PID' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    await page.getByTestId('grid-columns').click();
    await page.getByRole('checkbox', { name: 'EAN' }).uncheck();
    await expect.poll(() => grid().getByRole('columnheader', { name: 'EAN' }).count()).toBe(0);
    // Saved on the server: a new browser (another machine) without the address's sort.
    await expect
      .poll(async () => {
        const window = await page.request.get(`${server.windowUrl}/ui/api/preferences/grid`, {
          headers: { 'x-pim-window': '1' },
        });
        return (
          (await window.json()) as { data: { value: { columns: { id: string; visible: boolean }[] } | null } }
        ).data.value?.columns.find((c) => c.id === 'ean')?.visible;
      })
      .toBe(false);
    const other = await page.context().browser()!.newContext({ locale: 'en-US' });
    try {
      const second = await other.newPage();
      await loginInWindow(second, server);
      const secondGrid = second.getByRole('grid', { name: 'Products' });
      await expect
        .poll(() => secondGrid.getByRole('columnheader', { name: 'Supplier PID' }).getAttribute('aria-sort'))
        .toBe('descending');
      expect(await secondGrid.getByRole('columnheader', { name: 'EAN' }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('opens on its first screen from one request, in the saved sort, asking nothing twice', async () => {
    await seed(30);
    await loginInWindow(page, server);
    await grid().getByRole('button', { name: 'Supplier PID' }).click();
    await grid().getByRole('button', { name: 'Supplier PID' }).click();
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00030');
    await expect
      .poll(async () => {
        const saved = await page.request.get(`${server.windowUrl}/ui/api/preferences/grid`, {
          headers: { 'x-pim-window': '1' },
        });
        return ((await saved.json()) as { data: { value: { sort: unknown } | null } }).data.value?.sort;
      })
      .toEqual({ by: 'supplierPid', dir: 'desc' });
    const asked: string[] = [];
    // Only what the reloaded page asks: a save of the sort the old page still had pending (its
    // debounce runs late on a loaded machine) is not part of the opening.
    let reloaded = false;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (reloaded && url.pathname.startsWith('/ui/api/') && url.pathname !== '/ui/api/events') {
        asked.push(`${request.method()} ${url.pathname}${url.search}`);
      }
    });
    // Reloaded without the sort in the address: the user's saved one decides.
    await page.evaluate("history.replaceState(null, '', '#/')");
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    await page.reload();
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00030');
    await expect.poll(count).toBe('30 products');
    await expect.poll(() => page.getByRole('treeitem').count()).toBeGreaterThan(0);
    // A search afterwards: by its answer the push channel has long been open (its first counter
    // is the opening's, so nothing is asked again).
    await page.getByRole('searchbox', { name: 'Search products' }).fill('P-0003');
    await expect.poll(count).toBe('1 product');
    expect(asked.filter((line) => !line.includes('q=P-0003'))).toEqual([
      'GET /ui/api/opening?grid=main%3Dfalse&block=100',
      'GET /ui/api/languages',
    ]);
    // Enter on a row: the editor's one request, asked for by the key.
    asked.length = 0;
    await grid().getByRole('row').filter({ hasText: 'P-00030' }).click();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByTestId('product-panel').getByLabel('Supplier PID').inputValue())
      .toBe('P-00030');
    expect(asked.filter((line) => line.includes('/sheet'))).toHaveLength(1);
  });

  it('works by keyboard: arrows move, Space and Shift select, Enter opens, Ctrl+F goes to the search', async () => {
    await seed(20);
    await loginInWindow(page, server);
    await expect.poll(async () => (await shownPids())[0]).toBe('P-00001');
    await grid().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    const selected = () =>
      grid()
        .locator('[role="row"][aria-selected="true"]')
        .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('[role="gridcell"]')[1]?.textContent));
    await expect.poll(selected).toEqual(['P-00002', 'P-00003', 'P-00004']);
    await page.keyboard.press('Enter');
    await expect.poll(hash).toMatch(/product=\d+/);
    await expect.poll(() => page.getByTestId('product-panel').isVisible()).toBe(true);
    await page.keyboard.press('Control+f');
    await expect
      .poll(() =>
        page.locator('body').evaluate((body) => body.ownerDocument.activeElement?.getAttribute('aria-label')),
      )
      .toBe('Search products');
  });

  it('follows a change made through REST within a second, keeping the scroll position', async () => {
    const token = await seed(500);
    await loginInWindow(page, server);
    await expect.poll(count).toBe('500 products');
    await grid().evaluate((el) => (el.scrollTop = 200 * 34));
    await expect.poll(async () => (await shownPids()).includes('P-00210')).toBe(true);
    const top = await grid().evaluate((el) => el.scrollTop);
    const res = await server.request('POST', '/api/product', {
      token,
      body: { supplierPid: 'Z-NEW', name: 'Neu' },
    });
    expect(res.status).toBe(201);
    await expect.poll(count, { timeout: 2_000 }).toBe('501 products');
    expect(await grid().evaluate((el) => el.scrollTop)).toBe(top);
  });

  it('offers no New product to a VIEWER, and speaks German', async () => {
    await seed(3);
    await server.addUser('vera', 'VIEWER');
    await loginInWindow(page, server, 'vera', 'vera-password');
    await expect.poll(count).toBe('3 products');
    expect(await page.getByRole('button', { name: 'New product' }).count()).toBe(0);
    await page.getByText('Deutsch').click();
    await expect.poll(count).toBe('3 Produkte');
    expect(await page.getByRole('columnheader', { name: 'Lieferanten-Artikelnummer' }).count()).toBe(1);
    await expectAccessible(page, 'grid (de, viewer)');
  });

  it('deletes from a row’s context menu after a confirmation naming the variants, by mouse and by keyboard', async () => {
    const token = await seed(3);
    const main = await server.request<{ id: number }>('POST', '/api/product', {
      token,
      body: { supplierPid: 'MAIN-1', name: 'Haupt' },
    });
    for (const supplierPid of ['MAIN-1-A', 'MAIN-1-B']) {
      await server.request('POST', `/api/product/${main.body.data!.id}/variants`, {
        token,
        body: { supplierPid },
      });
    }
    await loginInWindow(page, server);
    await expect.poll(count).toBe('6 products');
    await grid().getByRole('row').filter({ hasText: 'MAIN-1' }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete product' });
    await expect.poll(() => dialog.textContent()).toContain('2 variants');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(count).toBe('3 products');
    expect((await server.request('GET', `/api/product/${main.body.data!.id}`, { token })).status).toBe(404);
    // By keyboard: the menu key on the active row.
    await grid().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Delete…' }).click();
    await page
      .getByRole('dialog', { name: 'Delete product' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(count).toBe('2 products');
  });
});
