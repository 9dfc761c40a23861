import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { chooseMenu, loginInWindow } from '../helpers/window-page.js';

let browser: Browser;
let server: TestServer;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());
beforeEach(async () => {
  server = await startServer({ window: true });
  context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
  await server.stop();
});

describe('the window when pim cannot be reached', () => {
  it('does not claim a logout the server never confirmed, and stays logged in', async () => {
    await loginInWindow(page, server);
    await page.route('**/ui/api/session/logout', (route) => route.abort('connectionrefused'));
    await chooseMenu(page, 'File', 'Log out');
    const failed = page.getByRole('alert').filter({ hasText: 'Could not log out: pim cannot be reached' });
    await expect.poll(() => failed.isVisible()).toBe(true);
    expect(await failed.textContent()).toContain('You are still logged in.');
    expect(await page.getByText('You have logged out.').count()).toBe(0);
    expect(await page.getByTestId('status-user').textContent()).toBe('admin');
    expect(server.app.sessions.desktopUser()?.username).toBe('admin');
    // Once the server answers again, the logout goes through.
    await page.unroute('**/ui/api/session/logout');
    await chooseMenu(page, 'File', 'Log out');
    await expect.poll(() => page.getByText('You have logged out.').isVisible()).toBe(true);
    expect(server.app.sessions.desktopUser()).toBeUndefined();
  });
});
