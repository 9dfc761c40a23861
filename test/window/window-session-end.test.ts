import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { runCliAsync } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { loginInWindow } from '../helpers/window-page.js';

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

describe('the reason the window gives when its session ends', () => {
  it('says the user was disabled when `pim user disable` (another process) disabled them', async () => {
    await server.addUser('editor', 'EDITOR');
    await loginInWindow(page, server, 'editor', 'editor-password');
    const result = await runCliAsync(server.dataDir, ['user', 'disable', 'editor']);
    expect(result.code, result.stderr).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('Your user has been disabled.').isVisible()).toBe(true);
  });

  it('still says an administrator ended the sessions when `pim user logout` did', async () => {
    await server.addUser('editor', 'EDITOR');
    await loginInWindow(page, server, 'editor', 'editor-password');
    const result = await runCliAsync(server.dataDir, ['user', 'logout', 'editor']);
    expect(result.code, result.stderr).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('An administrator ended your sessions.').isVisible()).toBe(true);
  });
});
