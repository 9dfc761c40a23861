import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { loginInWindow, windowPagePerTest, type WindowPage } from '../helpers/window-page.js';

const SHOTS = shotsDir('help');

let opened: WindowPage;
let server: TestServer;
let page: Page;
windowPagePerTest((ready) => ({ server, page } = opened = ready));

const reference = () => page.getByRole('menuitem', { name: /^API reference/ });

describe('Help › API reference', () => {
  it('opens the reference of the REST server where it runs now', async () => {
    await loginInWindow(page, server);
    const port = server.app.rest.address()!.port;
    await page.getByRole('button', { name: 'Help', exact: true }).click();
    const popup = opened.context.waitForEvent('page');
    await reference().click();
    expect((await popup).url()).toBe(`http://127.0.0.1:${port}/api/docs`);
  });

  it('is disabled, saying why, while the REST server is off', async () => {
    await server.app.settings.update(server.app.ownerContext(), { 'rest.enabled': false });
    await server.app.applySettings();
    await loginInWindow(page, server);
    await expect.poll(() => page.getByTestId('status-rest').textContent()).toBe('off');
    await page.getByRole('button', { name: 'Help', exact: true }).click();
    await expect.poll(() => reference().isDisabled()).toBe(true);
    expect(await reference().textContent()).toContain(
      'The REST server is not running (see Settings › Rest API).',
    );
    // Once the menu has faded in.
    const menu = page.getByRole('menu');
    await expect
      .poll(() => menu.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).opacity))
      .toBe('1');
    await page.screenshot({ path: `${SHOTS}/api-reference-off.png` });
  });
});
