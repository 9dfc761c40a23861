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
  // Under the test timeout, so that a stuck step fails with what it waited for.
  page.setDefaultTimeout(10_000);
});
afterEach(async () => {
  await context.close();
  await server.stop();
});

const rows = (text: string) => page.getByTestId('monitor-row').filter({ hasText: text }).count();

/** Breaks the window's connection (its server stops and starts again on the same port). */
async function reconnect(): Promise<void> {
  const port = Number(new URL(server.windowUrl).port);
  await server.app.window.stop();
  await server.app.window.reconcile({ host: '127.0.0.1', port });
}

describe('Window › REST API Monitor across reconnects', () => {
  it('shows no entry twice after its stream reconnects, and a cleared monitor stays cleared', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Window', 'REST API Monitor');
    const token = await server.login();
    for (const limit of [1, 2, 3]) await server.request('GET', `/api/product?limit=${limit}`, { token });
    await expect.poll(() => rows('/api/product?limit=3')).toBe(1);

    await reconnect();
    await server.request('GET', '/api/product?limit=4', { token });
    await expect.poll(() => rows('/api/product?limit=4'), { timeout: 10_000 }).toBe(1);
    for (const limit of [1, 2, 3]) expect(await rows(`/api/product?limit=${limit}`)).toBe(1);

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.getByTestId('monitor-count').textContent()).toBe('0 requests');
    await reconnect();
    await server.request('GET', '/api/product?limit=5', { token });
    await expect.poll(() => rows('/api/product?limit=5'), { timeout: 10_000 }).toBe(1);
    // Only what came after the Clear.
    expect(await page.getByTestId('monitor-count').textContent()).toMatch(/^1 /);
  });
});
