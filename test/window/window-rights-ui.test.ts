import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/** The items of a menu of the menu bar, as offered. */
async function itemsOf(menu: string): Promise<string[]> {
  await page.getByRole('button', { name: menu, exact: true }).click();
  const items = page.getByRole('menuitem');
  await expect.poll(() => items.count()).toBeGreaterThan(0);
  const names = await items.allTextContents();
  await page.keyboard.press('Escape');
  await expect.poll(() => items.count()).toBe(0);
  return names;
}

describe('the menu offers what the role may do', () => {
  it('offers a viewer no Open workspace, no Import and no Users, which the server refuses all the same', async () => {
    await server.addUser('vera', 'VIEWER');
    await loginInWindow(page, server, 'vera', 'vera-password');
    expect(await itemsOf('File')).toEqual(['Export view…', 'Export BMEcat…', 'Log out', 'Quit the session']);
    expect(await page.getByRole('button', { name: 'Users', exact: true }).count()).toBe(0);
    // What the window no longer offers, the server still refuses.
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    const open = await viewer.request('POST', '/workspaces/open', { body: { workspaceId: 1 } });
    expect([open.status, open.body.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('offers an editor Open workspace, and an administrator Users as well', async () => {
    await server.addUser('erika', 'EDITOR');
    await loginInWindow(page, server, 'erika', 'erika-password');
    expect(await itemsOf('File')).toEqual([
      'Open workspace…',
      'New workspace…',
      'Import…',
      'Export view…',
      'Export BMEcat…',
      'Log out',
      'Quit the session',
    ]);
    expect(await page.getByRole('button', { name: 'Users', exact: true }).count()).toBe(0);
    await chooseMenu(page, 'File', 'Log out');
    await loginInWindow(page, server);
    expect(await itemsOf('Users')).toEqual(['Manage users…']);
  });
});
