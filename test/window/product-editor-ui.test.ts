import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

/** The product editor in the window (issue 33, points 6-8), beside the grid of the catalogue view (#/?product=<id>). */

const SHOTS = shotsDir('product-editor');
const ECLASS = '0173-1#02-AAF040#004';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

interface Sheet {
  product: { id: number; supplierPid: string; ean: string | null; variantCount: number };
  shortTexts: { lang: string; value: string }[];
  longTexts: { lang: string; value: string }[];
  features: { ftidref: string; funit: string | null; values: { lang: string; value: string }[] }[];
}

async function rest<T = unknown>(method: string, path: string, body?: unknown) {
  const res = await server.request<T>(method, path, { token: await server.login(), body });
  return res;
}

async function product(body: Record<string, unknown>): Promise<number> {
  const res = await rest<{ id: number }>('POST', '/api/product', body);
  expect(res.status).toBe(201);
  return res.body.data!.id;
}

const restSheet = async (id: number) => (await rest<Sheet>('GET', `/api/product/${id}/sheet`)).body.data!;

async function openEditor(id: number | 'new', username?: string, password?: string): Promise<void> {
  await loginInWindow(page, server, username, password);
  await page.goto(`${server.windowUrl}/#/?product=${id}`);
  await expect
    .poll(() => page.getByRole('heading', { level: 2 }).textContent())
    .toMatch(/Product|New product/);
}

async function addLanguage(search: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Add language…' }).fill(search);
  await page.getByRole('option', { name: option }).click();
}

const save = () => page.getByRole('button', { name: 'Save', exact: true }).click();

describe('the product editor', () => {
  it('edits texts in two languages and saves them in one request, markup as typed', async () => {
    const id = await product({ supplierPid: 'DRILL-1', name: 'Bohrer' });
    await openEditor(id);
    await page.getByLabel('Short text (German (deu))').fill('Akku-Bohrschrauber');
    await addLanguage('Engl', 'English (eng)');
    await page.getByLabel('Short text (English (eng))').fill('Cordless drill');
    const markup = '<p>Compact & <b>strong</b></p>\n  <ul><li>18 V</li></ul>';
    await page.getByLabel('Long text (English (eng))').fill(markup);
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname === `/ui/api/products/${id}/sheet`) puts++;
    });
    await save();
    await expect
      .poll(async () => (await restSheet(id)).shortTexts)
      .toEqual([
        { lang: 'deu', value: 'Akku-Bohrschrauber' },
        { lang: 'eng', value: 'Cordless drill' },
      ]);
    expect((await restSheet(id)).longTexts).toEqual([{ lang: 'eng', value: markup }]);
    expect(puts).toBe(1);
    // Shown as typed, never rendered: no element of the markup is in the page.
    expect(await page.getByTestId('product-panel').locator('b, ul').count()).toBe(0);
    expect(await page.getByLabel('Long text (English (eng))').inputValue()).toBe(markup);
    await expect.poll(() => page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor.png`, fullPage: true });
  });

  it('adds a feature with an ECLASS ftidref and removes a language', async () => {
    const id = await product({ supplierPid: 'DRILL-2', name: 'Bohrer' });
    await rest('PUT', `/api/product/${id}/texts/short/eng`, { value: 'Drill' });
    await openEditor(id);
    await page.getByRole('button', { name: 'Add feature' }).click();
    await page.getByLabel('Feature 1: FT_IDREF').fill(ECLASS);
    await page.getByLabel(`Unit of ${ECLASS}`).fill('mm');
    await page.getByLabel(`${ECLASS}: value in No linguistic content; Not applicable (zxx)`).fill('12.5');
    await page.getByRole('tab', { name: 'English (eng)' }).click();
    await page.getByRole('button', { name: 'Remove English (eng)' }).click();
    await save();
    await expect
      .poll(async () => (await restSheet(id)).features)
      .toMatchObject([{ ftidref: ECLASS, funit: 'mm', values: [{ lang: 'zxx', value: '12.5' }] }]);
    expect((await restSheet(id)).shortTexts).toEqual([{ lang: 'deu', value: 'Bohrer' }]);
  });

  it('creates a variant, opens it and links back to its main product', async () => {
    const id = await product({ supplierPid: 'MAIN-1', name: 'Haupt' });
    await openEditor(id);
    await page.getByRole('button', { name: 'New variant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New variant' });
    await dialog.getByLabel('Supplier PID').fill('MAIN-1-V1');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const open = page.getByRole('button', { name: 'MAIN-1-V1' });
    await expect.poll(() => open.isVisible()).toBe(true);
    expect((await restSheet(id)).product.variantCount).toBe(1);
    await open.click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Product MAIN-1-V1');
    await page.getByRole('button', { name: `Open its main product (${id})` }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Product MAIN-1');
  });

  it('shows the conflict when REST changed the product meanwhile: reload, then overwrite', async () => {
    const id = await product({ supplierPid: 'CONF-1', name: 'Konflikt' });
    await openEditor(id);
    await page.getByLabel('EAN').fill('4006381333115');
    expect((await rest('PUT', `/api/product/${id}`, { manufacturerPid: 'FROM-REST' })).status).toBe(200);
    await save();
    const dialog = page.getByRole('dialog', { name: 'Changed elsewhere' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect((await restSheet(id)).product.ean).toBeNull();
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.getByLabel('Manufacturer PID').inputValue()).toBe('FROM-REST');
    expect(await page.getByLabel('EAN').inputValue()).toBe('');

    await page.getByLabel('EAN').fill('4006381333115');
    expect((await rest('PUT', `/api/product/${id}`, { manufacturerPid: 'AGAIN' })).status).toBe(200);
    await save();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Overwrite' }).click();
    await expect.poll(async () => (await restSheet(id)).product.ean).toBe('4006381333115');
    // The form as it stood: the manufacturerPid it showed, not REST's later one.
    expect(
      (await rest<{ manufacturerPid: string }>('GET', `/api/product/${id}`)).body.data!.manufacturerPid,
    ).toBe('FROM-REST');
  });

  it('asks before Back or Forward leaves unsaved changes; staying keeps the edits and the address', async () => {
    const first = await product({ supplierPid: 'BACK-1', name: 'Erstes' });
    const second = await product({ supplierPid: 'BACK-2', name: 'Zweites' });
    const heading = () => page.getByRole('heading', { level: 2 }).textContent();
    await openEditor(first);
    // The browser's own move (as a link would), a history entry: the form is clean, nothing is asked.
    await page.evaluate(`window.location.hash = '#/?product=${second}'`);
    await expect.poll(heading).toBe('Product BACK-2');
    const asked: string[] = [];
    const answers: boolean[] = [];
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answers.shift() ? dialog.accept() : dialog.dismiss());
    });
    await page.getByLabel('EAN').fill('4006381333115');

    answers.push(false);
    await page.evaluate('window.history.back()');
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe('The product has unsaved changes. Leave it and lose them?');
    // Stayed: the address is the product's again, the editor and its edit are as they were.
    await expect.poll(() => page.url()).toMatch(new RegExp(`#/\\?product=${second}$`));
    expect(await heading()).toBe('Product BACK-2');
    expect(await page.getByLabel('EAN').inputValue()).toBe('4006381333115');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isEnabled()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-back-stayed.png`, fullPage: true });
    // The window's own move (a row of the grid opened) asks once, not once more for its address.
    answers.push(false);
    await page.getByRole('grid').getByRole('row').filter({ hasText: 'BACK-1' }).dblclick();
    await expect.poll(() => asked.length).toBe(2);
    expect(await heading()).toBe('Product BACK-2');
    expect(await page.getByLabel('EAN').inputValue()).toBe('4006381333115');

    // Back once more, and leave this time: the first product, the edit lost (never saved).
    answers.push(true);
    await page.evaluate('window.history.back()');
    await expect.poll(heading).toBe('Product BACK-1');
    expect(asked).toHaveLength(3);
    expect(page.url()).toMatch(new RegExp(`#/\\?product=${first}$`));
    expect((await restSheet(second)).product.ean).toBeNull();
    // Forward with nothing unsaved moves without a question.
    await page.evaluate('window.history.forward()');
    await expect.poll(heading).toBe('Product BACK-2');
    expect(await page.getByLabel('EAN').inputValue()).toBe('');
    expect(asked).toHaveLength(3);
  });

  it('shows a refusal under the field it names', async () => {
    await product({ supplierPid: 'TAKEN-1' });
    const id = await product({ supplierPid: 'FREE-1', name: 'Feld' });
    await openEditor(id);
    const supplierPid = page.getByLabel('Supplier PID');
    await supplierPid.fill('TAKEN-1');
    await save();
    await expect.poll(() => supplierPid.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await supplierPid.getAttribute('aria-describedby'))!.split(' ');
    const texts = await Promise.all(describedBy.map((d) => page.locator(`[id="${d}"]`).textContent()));
    expect(texts.join(' ')).toContain("supplierPid 'TAKEN-1' is already taken");
    expect((await restSheet(id)).product.supplierPid).toBe('FREE-1');
  });

  it('is read-only for a VIEWER: no enabled Save, New variant or Delete', async () => {
    const id = await product({ supplierPid: 'VIEW-1', name: 'Lesen' });
    await server.addUser('vera', 'VIEWER', 'vera-password-1');
    await openEditor(id, 'vera', 'vera-password-1');
    expect(await page.getByLabel('Supplier PID').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Short text (German (deu))').getAttribute('readonly')).not.toBeNull();
    for (const name of ['Save', 'Delete', 'New variant']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    expect(await page.getByRole('button', { name: 'Add feature' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Add language…' }).count()).toBe(0);
  });

  it('creates a new product and deletes it with its variants after a confirmation naming them', async () => {
    await openEditor('new');
    await page.getByLabel('Supplier PID').fill('NEW-1');
    await page.getByLabel('Short text (German (deu))').fill('Neu');
    await save();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Product NEW-1');
    const id = Number(/[?&]product=(\d+)/.exec(page.url())![1]);
    for (const pid of ['NEW-1-A', 'NEW-1-B'])
      await rest('POST', `/api/product/${id}/variants`, { supplierPid: pid });
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'NEW-1-B' }).isVisible()).toBe(true);
    await page.getByTestId('product-panel').getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete product' });
    await expect.poll(() => dialog.textContent()).toContain('Delete product NEW-1 and its 2 variants?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => (await rest('GET', `/api/product/${id}`)).status).toBe(404);
  });

  it('fits a 400 px window and speaks German', async () => {
    const id = await product({ supplierPid: 'NARROW-1', name: 'Schmal' });
    await rest('PUT', `/api/product/${id}/features/${encodeURIComponent(ECLASS)}`, {
      values: [{ lang: 'zxx', value: '7' }],
    });
    await page.setViewportSize({ width: 400, height: 800 });
    await openEditor(id);
    await page.screenshot({ path: `${SHOTS}/editor-400.png`, fullPage: true });
    // The page does not scroll sideways; the feature table does, inside its own box.
    const width = await page.locator('html').evaluate((html) => html.scrollWidth);
    expect(width).toBeLessThanOrEqual(400);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('label', { hasText: 'Deutsch' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe('Produkt NARROW-1');
    expect(await page.getByLabel('Kurztext (Deutsch (deu))').inputValue()).toBe('Schmal');
    expect(await page.getByRole('button', { name: 'Speichern' }).isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/editor-de.png`, fullPage: true });
  });
});
