import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import type { TestServer } from '../helpers/server.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';
import { expectAccessible } from '../helpers/axe.js';

/** The catalogue view as a whole: the tree, the grid and the editor working together (issue 33). */

let server: TestServer;
let page: Page;

// The README's screenshots are rewritten only when asked (PIM_SCREENSHOTS=1), as window-ui's.
const SCREENSHOTS =
  process.env.PIM_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'pim-screenshots-'))}/`;

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await server.request<T>(method, path, { token: await server.login(), body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data as T;
}

const group = (name: string, parentId?: number) => rest<GroupDto>('POST', '/api/group', { name, parentId });
const product = (supplierPid: string, name: string) =>
  rest<{ id: number }>('POST', '/api/product', { supplierPid, name });
const groupOf = async (id: number) =>
  (await rest<{ group: { id: number } | null }>('GET', `/api/product/${id}/sheet`)).group?.id ?? null;

const grid = () => page.getByRole('grid', { name: 'Products' });
const count = () => page.getByTestId('grid-count').textContent();
const row = (supplierPid: string) => grid().getByRole('row').filter({ hasText: supplierPid });
const item = (name: string) => page.getByRole('treeitem', { name: new RegExp(`^${name}(,|$)`) });

describe('the catalogue view', () => {
  windowPagePerTest((opened) => ({ server, page } = opened));

  it('filters the grid by the group chosen in the tree, with or without its subgroups', async () => {
    const tools = await group('Werkzeug');
    const drills = await group('Bohrer', tools.id);
    const a = await product('A-1', 'Hammer');
    const b = await product('B-1', 'Bohrer 8 mm');
    await product('C-1', 'Ungruppiert');
    await rest('POST', `/api/group/${tools.id}/products`, { productIds: [a.id] });
    await rest('POST', `/api/group/${drills.id}/products`, { productIds: [b.id] });
    await loginInWindow(page, server);
    await expect.poll(count).toBe('3 products');
    await item('Werkzeug').click();
    await expect.poll(count).toBe('1 product');
    expect(new URL(page.url()).hash).toBe(`#/?group=${tools.id}`);
    await page.getByTestId('grid-filters').click();
    await page.getByLabel('Include subgroups').check();
    await expect.poll(count).toBe('2 products');
    await page.keyboard.press('Escape');
    await item('All products').click();
    await expect.poll(count).toBe('3 products');
  });

  it('assigns products dragged from the grid onto a group, and by the editor’s group dialog', async () => {
    const tools = await group('Werkzeug');
    const saws = await group('Sägen');
    const a = await product('A-1', 'Hammer');
    const b = await product('B-1', 'Zange');
    await loginInWindow(page, server);
    await expect.poll(() => row('A-1').count()).toBe(1);
    // Select both rows (click, Shift+click), then drag them onto the group.
    await row('A-1').click();
    await row('B-1').click({ modifiers: ['Shift'] });
    await row('B-1').dragTo(item('Werkzeug'));
    await expect.poll(() => groupOf(a.id)).toBe(tools.id);
    expect(await groupOf(b.id)).toBe(tools.id);
    // The tree's count follows (the catalogue event refreshes it).
    await expect.poll(() => item('Werkzeug').getAttribute('aria-label')).toBe('Werkzeug, 2 products');

    // The editor: Change group…, pick by typing, save.
    await row('A-1').dblclick();
    await expect.poll(() => page.getByTestId('editor-group').textContent()).toBe('Group: Werkzeug');
    await page.getByRole('button', { name: 'Change group…' }).click();
    const dialog = page.getByRole('dialog', { name: "The product's group" });
    await dialog.getByLabel('Group').fill('Säg');
    await page.getByRole('option', { name: 'Sägen', exact: true }).click();
    await dialog.getByRole('button', { name: 'Take this group' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => groupOf(a.id)).toBe(saws.id);
    expect(await groupOf(b.id)).toBe(tools.id);
  });

  it('shows a change made through REST in the open editor and grid within a second', async () => {
    const p = await product('LIVE-1', 'Alt');
    await loginInWindow(page, server);
    await page.goto(`${server.windowUrl}/#/?product=${p.id}`);
    const shortText = page.getByLabel('Short text (German (deu))');
    await expect.poll(() => shortText.inputValue()).toBe('Alt');
    await rest('PUT', `/api/product/${p.id}/texts/short/deu`, { value: 'Neu' });
    await expect.poll(() => shortText.inputValue(), { timeout: 2_000 }).toBe('Neu');
    await expect.poll(() => row('LIVE-1').textContent(), { timeout: 2_000 }).toContain('Neu');
  });

  it('is accessible with the tree, the grid and the editor side by side, in English and German', async () => {
    const tools = await group('Werkzeug');
    await group('Bohrer', tools.id);
    const p = await product('DRILL-18', 'Akku-Bohrschrauber 18 V');
    await rest('PUT', `/api/product/${p.id}/texts/short/eng`, { value: 'Cordless drill 18 V' });
    await rest('PUT', `/api/product/${p.id}/features/${encodeURIComponent('0173-1#02-AAF040#004')}`, {
      funit: 'mm',
      values: [{ lang: 'zxx', value: '13' }],
    });
    await rest('POST', `/api/group/${tools.id}/products`, { productIds: [p.id] });
    await rest(
      'POST',
      '/api/product/bulk',
      Array.from({ length: 30 }, (_, i) => ({
        supplierPid: `SCREW-${String(i + 1).padStart(3, '0')}`,
        name: `Schraube ${i + 1}`,
        language: 'deu',
        groupId: tools.id,
      })),
    );
    await loginInWindow(page, server);
    await expect.poll(count).toBe('31 products');
    await page.screenshot({ path: `${SCREENSHOTS}catalogue-grid.png` });
    await page.goto(`${server.windowUrl}/#/?product=${p.id}`);
    await expect
      .poll(() => page.getByLabel('Short text (German (deu))').inputValue())
      .toBe('Akku-Bohrschrauber 18 V');
    // Opened by its toggle (selecting it would filter the grid).
    await item('Werkzeug').locator('span[aria-hidden]').first().click();
    await expect.poll(() => item('Bohrer').isVisible()).toBe(true);
    await expectAccessible(page, 'catalogue (en)');
    await page.screenshot({ path: `${SCREENSHOTS}catalogue.png` });
    await page.locator('label', { hasText: 'Deutsch' }).click();
    await expect.poll(count).toBe('31 Produkte');
    await expectAccessible(page, 'catalogue (de)');
  }, 60_000);
});

describe('the catalogue view without a workspace', () => {
  windowPagePerTest(
    (opened) => ({ server, page } = opened),
    () => ({ setup: 'no-workspace' }),
  );

  it('prompts to open or create one, and a new one opens at once', async () => {
    await loginInWindow(page, server);
    await expect
      .poll(() => page.getByRole('heading', { name: 'No workspace is open' }).isVisible())
      .toBe(true);
    await expectAccessible(page, 'no workspace');
    await page.getByRole('button', { name: 'New workspace…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Zweiter Katalog');
    await dialog.getByRole('button', { name: 'Create and open' }).click();
    await expect.poll(() => page.getByTestId('status-workspace').textContent()).toBe('Zweiter Katalog');
    await expect.poll(count).toBe('0 products');
    // The dialog fades out after it closed: scanned mid-fade, the view behind its overlay reads as
    // low contrast. The view is what is checked here, once the dialog is gone.
    await expect.poll(() => dialog.count()).toBe(0);
    await expectAccessible(page, 'empty catalogue');
  });

  it('tells a VIEWER to ask for a workspace, offering nothing it may not do', async () => {
    await server.addUser('vera', 'VIEWER');
    await loginInWindow(page, server, 'vera', 'vera-password');
    await expect
      .poll(() => page.getByRole('heading', { name: 'No workspace is open' }).isVisible())
      .toBe(true);
    expect(await page.getByText(/Ask a user with the right to open workspaces/).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'New workspace…' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Open workspace…' }).count()).toBe(0);
  });
});
