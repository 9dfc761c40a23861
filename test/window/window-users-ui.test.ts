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
  page.setDefaultTimeout(10_000);
});
afterEach(async () => {
  await context.close();
  await server.stop();
});

describe('Users in the window', () => {
  it('sends one request when Create is double-clicked', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/ui/api/users') posts++;
    });
    await page.getByRole('textbox', { name: 'Name' }).fill('neu');
    await page.getByLabel('Initial password').fill('neu-password-1');
    await page.getByRole('button', { name: 'Create' }).dblclick();
    await expect.poll(() => page.getByTestId('user-neu').isVisible()).toBe(true);
    expect(posts).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
