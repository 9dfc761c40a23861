import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { freePort, startServer, ADMIN_PASSWORD, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';
import { chooseMenuByKeyboard } from '../helpers/window-page.js';
import { expectAccessible } from '../helpers/axe.js';

// The README's screenshots are rewritten only when asked (PIM_SCREENSHOTS=1): every run would
// otherwise change them (ports, times) in the working tree.
const SCREENSHOTS =
  process.env.PIM_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'pim-screenshots-'))}/`;

let browser: Browser;
let server: TestServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => browser.close());
beforeEach(async () => {
  server = await startServer({ window: true, restPort: await freePort() });
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
  await server.stop();
});

async function login(username = 'admin', password = ADMIN_PASSWORD, target = page): Promise<void> {
  await target.goto(server.windowUrl);
  await target.getByLabel('User name').fill(username);
  await target.getByRole('textbox', { name: 'Password' }).fill(password);
  await target.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => target.getByTestId('status-user').textContent()).toBe(username);
}

async function menu(name: string, item: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('the application window', () => {
  it('logs in and out, shows user, workspace and REST state live, and is accessible', async () => {
    await page.goto(server.windowUrl);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    await expectAccessible(page, 'login');
    await page.screenshot({ path: `${SCREENSHOTS}login.png` });
    await login();
    expect(await page.getByTestId('status-workspace').textContent()).toBe('Test');
    expect(await page.getByTestId('status-rest').textContent()).toMatch(
      /running at http:\/\/127\.0\.0\.1:\d+\/api/,
    );
    await expectAccessible(page, 'home');
    await menu('File', 'Log out');
    await expect.poll(() => page.getByText('You have logged out.').isVisible()).toBe(true);
  });

  it('returns to the login screen at once when another user logs in to this instance', async () => {
    await server.addUser('erika', 'EDITOR');
    await login();
    await new WindowClient(server).login('erika', 'erika-password');
    await expect
      .poll(() => page.getByText('Another user logged in to this pim').isVisible(), { timeout: 1_000 })
      .toBe(true);
  });

  it('returns to the login screen within a second when the desktop user logs out over REST', async () => {
    await login();
    const token = await server.login();
    await server.request('POST', '/api/auth/logout', { token });
    await expect
      .poll(() => page.getByText('You logged out through the REST API').isVisible(), { timeout: 1_000 })
      .toBe(true);
  });

  it('enables the REST server from Settings › Rest API, refuses a busy port, and is read only for an editor', async () => {
    await server.app.settings.update(server.app.ownerContext(), { 'rest.enabled': false });
    await server.app.applySettings();
    await login();
    await expect.poll(() => page.getByTestId('status-rest').textContent()).toBe('off');
    await menu('Settings', 'Settings…');
    await page.getByLabel('Enabled').check();
    const port = await freePort();
    await page.getByLabel('Port').fill(String(port));
    await expectAccessible(page, 'settings');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('rest-state').textContent())
      .toContain(`running at http://127.0.0.1:${port}/api`);
    await page.screenshot({ path: `${SCREENSHOTS}settings.png` });
    const token = await (
      await import('../helpers/http.js')
    ).loginAt(`http://127.0.0.1:${port}`, 'admin', ADMIN_PASSWORD);
    const res = await fetch(`http://127.0.0.1:${port}/api/workspace`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    await expect.poll(() => page.getByTestId('status-rest').textContent()).toContain(String(port));

    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busy = (blocker.address() as { port: number }).port;
    await page.getByLabel('Port').fill(String(busy));
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByText(`Port ${busy} on 127.0.0.1 is in use by another program`).isVisible())
      .toBe(true);
    expect(await server.app.settings.get('rest.port')).toBe(port);
    blocker.close();

    await server.addUser('erika', 'EDITOR');
    const editor = await context.newPage();
    await context.clearCookies();
    await login('erika', 'erika-password', editor);
    await editor.getByRole('button', { name: 'Settings', exact: true }).click();
    await editor.getByRole('menuitem', { name: 'Settings…' }).click();
    await expect
      .poll(() => editor.getByText('Read only: your role lacks the right “Einstellungen”.').isVisible())
      .toBe(true);
    expect(await editor.getByLabel('Enabled').isDisabled()).toBe(true);
    expect(await editor.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  });

  it('shows a REST request in the monitor within a second', async () => {
    await login();
    await menu('Window', 'REST API Monitor');
    await expect.poll(() => page.getByRole('heading', { name: 'REST API Monitor' }).isVisible()).toBe(true);
    const token = await server.login();
    await server.request('GET', '/api/product?limit=3', { token });
    await expect
      .poll(() => page.getByTestId('monitor-row').filter({ hasText: '/api/product?limit=3' }).count(), {
        timeout: 1_000,
      })
      .toBe(1);
    // A little of everything: reads, a write, a miss, a refusal.
    await server.request('POST', '/api/product', { token, body: { supplierPid: 'MON-1', name: 'Monitor' } });
    for (let i = 1; i <= 12; i++) await server.request('GET', `/api/product?limit=${i}`, { token });
    await server.request('GET', '/api/group/tree', { token });
    await server.request('GET', '/api/product/999999', { token });
    await server.request('GET', '/api/workspace');
    await expect
      .poll(() => page.getByTestId('monitor-row').filter({ hasText: '/api/workspace' }).count())
      .toBe(1);
    await expectAccessible(page, 'monitor');
    await page.screenshot({ path: `${SCREENSHOTS}monitor.png` });
    // Filters: by path text, by status class, by method.
    await page.getByLabel('Filter by path').fill('999999');
    await expect.poll(() => page.getByTestId('monitor-row').count()).toBe(1);
    await page.getByLabel('Filter by path').fill('');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: '4xx' }).click();
    await expect.poll(() => page.getByTestId('monitor-row').count()).toBe(2);
    await page.getByRole('combobox', { name: 'Method' }).click();
    await page.getByRole('option', { name: 'POST' }).click();
    await expect.poll(() => page.getByTestId('monitor-count').textContent()).toBe('0 requests');
    await page.getByRole('button', { name: 'Clear' }).click();
  });

  it('keeps up with a burst of 2,000 requests in a second, keeping the last 1,000', async () => {
    await login();
    await menu('Window', 'REST API Monitor');
    await expect.poll(() => page.getByRole('heading', { name: 'REST API Monitor' }).isVisible()).toBe(true);
    // 2,000 entries over a second, as the REST server records them (ten batches of 200).
    for (let batch = 0; batch < 10; batch++) {
      for (let i = 0; i < 200; i++) {
        server.app.monitor.record({
          method: 'GET',
          path: `/api/product/${batch * 200 + i}`,
          status: 200,
          at: Date.now(),
          durationMs: 0.2,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect.poll(() => page.getByTestId('monitor-count').textContent()).toBe('1000 requests');
    // Still responsive: the newest entry is shown (following the bottom), and Pause answers at once.
    await expect
      .poll(() => page.getByTestId('monitor-row').filter({ hasText: '/api/product/1999' }).count())
      .toBe(1);
    expect(await page.getByTestId('monitor-row').count()).toBeLessThan(100);
    // Scrolled up, the list stays where the user is while new entries arrive.
    const list = page.getByRole('rowgroup', { name: 'REST API Monitor' });
    await list.evaluate((el) => el.scrollTo(0, 0));
    await expect
      .poll(() => page.getByTestId('monitor-row').filter({ hasText: '/api/product/1000' }).count())
      .toBe(1);
    for (let i = 0; i < 20; i++) {
      server.app.monitor.record({
        method: 'GET',
        path: `/api/late/${i}`,
        status: 200,
        at: Date.now(),
        durationMs: 0.1,
      });
    }
    await expect.poll(() => page.getByTestId('monitor-count').textContent()).toBe('1000 requests');
    await expect
      .poll(() => page.getByTestId('monitor-row').filter({ hasText: '/api/product/1020' }).count())
      .toBe(1);
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true);
  });

  it('administers users: add, change role, disable', async () => {
    await login();
    await menu('Users', 'Manage users…');
    await page.getByRole('textbox', { name: 'Name' }).fill('neu');
    await page.getByLabel('Initial password').fill('neu-password-1');
    await page.getByRole('button', { name: 'Create' }).click();
    const row = page.getByTestId('user-neu');
    await expect.poll(() => row.isVisible()).toBe(true);
    await expectAccessible(page, 'users');
    await row.getByRole('combobox', { name: 'Role neu' }).click();
    await page.getByRole('option', { name: 'VIEWER' }).click();
    await expect
      .poll(
        async () =>
          (await server.app.users.list(server.app.ownerContext())).find((u) => u.username === 'neu')?.role,
      )
      .toBe('VIEWER');
    await row.getByRole('button', { name: 'Actions neu' }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect.poll(() => row.getByText('disabled').isVisible()).toBe(true);
    const users = await server.app.users.list(server.app.ownerContext());
    expect(users.find((u) => u.username === 'neu')).toMatchObject({ disabled: true, role: 'VIEWER' });
  });

  it('is usable with the keyboard alone: log in, open a menu, open and close a dialog', async () => {
    await page.goto(server.windowUrl);
    await page.getByLabel('User name').focus();
    await expect.poll(() => page.getByLabel('User name').evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('status-user').textContent()).toBe('admin');
    await chooseMenuByKeyboard(
      page,
      page.getByRole('button', { name: 'Settings', exact: true }),
      page.getByRole('menuitem', { name: 'Settings…' }),
    );
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // Escape goes where the focus is: into the dialog once it has taken it (later than it shows under load).
    await expect.poll(() => dialog.evaluate((el) => el.matches(':focus-within'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('speaks German with the spec’s vocabulary, switchable', async () => {
    const german = await browser.newContext({ locale: 'de-DE' });
    const de = await german.newPage();
    await de.goto(server.windowUrl);
    await expect.poll(() => de.getByRole('heading', { name: 'Bei pim anmelden' }).isVisible()).toBe(true);
    await de.getByLabel('Benutzername').fill('admin');
    await de.getByRole('textbox', { name: 'Passwort' }).fill(ADMIN_PASSWORD);
    await de.getByRole('button', { name: 'Anmelden' }).click();
    await expect
      .poll(() => de.getByRole('button', { name: 'Einstellungen', exact: true }).isVisible())
      .toBe(true);
    await expect.poll(() => de.getByRole('status').getByText('Arbeitsbereich:').isVisible()).toBe(true);
    await de.locator('label', { hasText: 'English' }).click();
    await expect.poll(() => de.getByRole('button', { name: 'Settings', exact: true }).isVisible()).toBe(true);
    await german.close();
  });
});
