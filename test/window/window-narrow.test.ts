import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

const SHOTS = shotsDir('narrow');
const WIDTH = 400;

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/** Nothing sticks out sideways: the page itself never scrolls horizontally. */
async function expectNoPageOverflow(what: string): Promise<void> {
  const width = await page.locator('html').evaluate((html) => html.scrollWidth);
  expect(width, `${what}: page width`).toBeLessThanOrEqual(WIDTH);
}

/**
 * The element can be reached: scrolled to (by the page or the box holding it), it lies wholly in
 * the window and inside every ancestor that clips, and a click at its centre lands on it.
 */
async function expectReachable(target: Locator, what: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const problem = await target.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView!;
    if (
      rect.left < -0.5 ||
      rect.right > view.innerWidth + 0.5 ||
      rect.top < -0.5 ||
      rect.bottom > view.innerHeight + 0.5
    )
      return `outside the window: ${JSON.stringify(rect)}`;
    for (let box = el.parentElement; box; box = box.parentElement) {
      const style = view.getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = box.getBoundingClientRect();
      if (
        rect.left < clip.left - 0.5 ||
        rect.right > clip.right + 0.5 ||
        rect.top < clip.top - 0.5 ||
        rect.bottom > clip.bottom + 0.5
      )
        return `cut off by ${box.tagName}.${box.className}: ${JSON.stringify(rect)} in ${JSON.stringify(clip)}`;
    }
    const hit = el.ownerDocument.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit && (el === hit || el.contains(hit) || hit.contains(el)) ? '' : `covered by ${hit?.tagName}`;
  });
  expect(problem, what).toBe('');
}

/** The element lies wholly within the bar it belongs to (a bar that grew no taller would let it spill over). */
async function expectInside(target: Locator, bar: Locator, what: string): Promise<void> {
  const [inner, outer] = await Promise.all([target.boundingBox(), bar.boundingBox()]);
  expect(inner, what).not.toBeNull();
  const fits =
    inner!.x >= outer!.x - 0.5 &&
    inner!.y >= outer!.y - 0.5 &&
    inner!.x + inner!.width <= outer!.x + outer!.width + 0.5 &&
    inner!.y + inner!.height <= outer!.y + outer!.height + 0.5;
  expect(fits, `${what}: ${JSON.stringify(inner)} in ${JSON.stringify(outer)}`).toBe(true);
}

describe('the window 400 px wide', () => {
  it('keeps the menu bar, the status bar, users, settings and the monitor reachable', async () => {
    await page.setViewportSize({ width: WIDTH, height: 800 });
    await loginInWindow(page, server);
    await page.screenshot({ path: `${SHOTS}/narrow-home.png` });
    await expectNoPageOverflow('home');
    const header = page.locator('header');
    const inHeader = [
      ...['File', 'Window', 'Settings', 'Users', 'Help'].map((name) =>
        page.getByRole('button', { name, exact: true }),
      ),
      page.getByRole('switch', { name: 'Dark theme' }),
      page.locator('label', { hasText: 'Deutsch' }),
    ];
    for (const [i, item] of inHeader.entries()) {
      await expectReachable(item, `menu bar item ${i}`);
      await expectInside(item, header, `menu bar item ${i}`);
    }
    // The page's own heading is not under the menu bar.
    await expectReachable(page.getByRole('searchbox', { name: 'Search products' }), 'search box');
    for (const item of ['status-user', 'status-workspace', 'status-rest', 'status-database']) {
      await expectReachable(page.getByTestId(item), item);
      await expectInside(page.getByTestId(item), page.locator('footer'), item);
    }

    await server.addUser('erika-mustermann', 'EDITOR');
    await chooseMenu(page, 'Users', 'Manage users…');
    await expect.poll(() => page.getByTestId('user-erika-mustermann').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/narrow-users.png`, fullPage: true });
    await expectNoPageOverflow('users');
    await expectReachable(page.getByRole('button', { name: 'Actions erika-mustermann' }), 'user actions');
    await expectReachable(page.getByRole('combobox', { name: 'Role erika-mustermann' }), 'user role');
    await expectReachable(page.getByRole('button', { name: 'Create' }), 'Create');

    await chooseMenu(page, 'Window', 'REST API Monitor');
    const token = await server.login();
    await server.request('GET', '/api/product?limit=3', { token });
    const row = page.getByTestId('monitor-row').filter({ hasText: '/api/product?limit=3' });
    await expect.poll(() => row.count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/narrow-monitor.png` });
    await expectNoPageOverflow('monitor');
    for (const name of ['Pause', 'Clear']) await expectReachable(page.getByRole('button', { name }), name);
    await expectReachable(row.getByRole('cell').last(), 'monitor user column');

    await chooseMenu(page, 'Settings', 'Settings…');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => dialog.getByLabel('Port').inputValue()).toMatch(/^\d+$/);
    // Once it has faded in.
    await expect
      .poll(() => dialog.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).opacity))
      .toBe('1');
    await page.screenshot({ path: `${SHOTS}/narrow-settings.png` });
    await expectNoPageOverflow('settings');
    await expectReachable(dialog.getByRole('button', { name: 'Save' }), 'Save');
    await expectReachable(dialog.getByTestId('rest-override'), 'override note');
  });

  it('keeps the longer German menu and status bar within their bars', async () => {
    await page.setViewportSize({ width: WIDTH, height: 800 });
    await loginInWindow(page, server);
    await page.locator('label', { hasText: 'Deutsch' }).click();
    const header = page.locator('header');
    await expect
      .poll(() => page.getByRole('button', { name: 'Einstellungen', exact: true }).isVisible())
      .toBe(true);
    for (const name of ['Datei', 'Fenster', 'Einstellungen', 'Benutzer', 'Hilfe']) {
      const menu = page.getByRole('button', { name, exact: true });
      await expectReachable(menu, name);
      await expectInside(menu, header, name);
    }
    await expectInside(page.getByRole('switch', { name: 'Dunkles Design' }), header, 'Dunkles Design');
    await expectReachable(page.getByRole('searchbox', { name: 'Produkte suchen' }), 'search box');
    for (const item of ['status-user', 'status-workspace', 'status-rest', 'status-database'])
      await expectInside(page.getByTestId(item), page.locator('footer'), item);
    await page.screenshot({ path: `${SHOTS}/narrow-home-de.png` });
  });
});
