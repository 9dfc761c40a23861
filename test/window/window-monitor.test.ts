import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

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

describe('Window › REST API Monitor counts', () => {
  const record = (path: string) =>
    server.app.monitor.record({ method: 'GET', path, status: 200, at: Date.now(), durationMs: 0.1 });
  const count = () => page.getByTestId('monitor-count').textContent();

  it('says "1 request", in German "1 Anfrage" and "2 Anfragen"', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Window', 'REST API Monitor');
    await expect.poll(count).toBe('0 requests');
    record('/api/one');
    await expect.poll(count).toBe('1 request');
    await page.locator('label', { hasText: 'Deutsch' }).click();
    await expect.poll(count).toBe('1 Anfrage');
    record('/api/two');
    await expect.poll(count).toBe('2 Anfragen');
  });
});
