import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

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
