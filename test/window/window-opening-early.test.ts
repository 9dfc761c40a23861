import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/**
 * The opening's request leaves from a small script of its own, before the window's bundle runs
 * (vite.config.ts, openingFirst): while the bundle is still on its way (held here), the request
 * has already left; once the bundle runs, it takes that answer instead of asking again.
 */
describe('the opening request', () => {
  it('leaves before the window bundle has arrived, and the bundle takes its answer', async () => {
    const token = await server.login();
    const created = await server.request('POST', '/api/product', {
      token,
      body: { supplierPid: 'EARLY-1', name: 'Chisel', language: 'eng' },
    });
    expect(created.status, created.text).toBe(201);
    await loginInWindow(page, server);

    const html = await (await page.request.get(server.windowUrl)).text();
    const bundle = /<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)"/.exec(html)?.[1];
    expect(bundle, html).toBeDefined();
    let held: Route | undefined;
    let bundleAsked: () => void;
    const bundleRequested = new Promise<void>((resolve) => (bundleAsked = resolve));
    await page.route(`**${bundle}`, (route) => {
      held = route;
      bundleAsked();
    });
    const openings: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/ui/api/opening') openings.push(request.url());
    });

    await page.evaluate("history.replaceState(null, '', '#/')");
    await page.reload({ waitUntil: 'commit' });
    await bundleRequested;
    await expect.poll(() => openings.length).toBe(1);
    expect(held, 'the bundle is still held').toBeDefined();
    await held!.continue();

    const firstRow = page.getByRole('grid', { name: 'Products' }).getByRole('row').nth(1);
    await expect.poll(() => firstRow.getByRole('gridcell').nth(1).textContent()).toBe('EARLY-1');
    await expect.poll(() => page.getByTestId('grid-count').textContent()).toBe('1 product');
    expect(openings).toHaveLength(1);
  });
});
