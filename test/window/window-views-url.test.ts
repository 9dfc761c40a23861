import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

const SHOTS = shotsDir('views-url');

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

const hash = () => new URL(page.url()).hash;
const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const shows = (name: string) => expect.poll(() => heading(name).isVisible()).toBe(true);

describe("the window's views in the address", () => {
  it('keeps the view over a reload, and Back and Forward move between views', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Window', 'REST API Monitor');
    await shows('REST API Monitor');
    expect(hash()).toBe('#/monitor');
    await chooseMenu(page, 'Users', 'Manage users…');
    await shows('Users');
    expect(hash()).toBe('#/users');

    await page.reload();
    await shows('Users');
    await page.screenshot({ path: `${SHOTS}/view-in-url.png` });
    await page.goBack();
    await shows('REST API Monitor');
    await page.goBack();
    await shows('Products of Test');
    await page.goForward();
    await shows('REST API Monitor');
    expect(hash()).toBe('#/monitor');
  });

  it('shows the home view for an address it does not know, and says so in the address', async () => {
    await loginInWindow(page, server);
    await page.goto(`${server.windowUrl}/#/nonsense`);
    await shows('Products of Test');
    await expect.poll(hash).toBe('#/');
  });

  it("shows the home view for a view the user's role may not see", async () => {
    await server.addUser('vera', 'VIEWER');
    await loginInWindow(page, server, 'vera', 'vera-password');
    await page.goto(`${server.windowUrl}/#/users`);
    await shows('Products of Test');
    await expect.poll(hash).toBe('#/');
    expect(await heading('Users').count()).toBe(0);
    // The monitor needs no right: a viewer may open it by its address.
    await page.goto(`${server.windowUrl}/#/monitor`);
    await shows('REST API Monitor');
  });
});
