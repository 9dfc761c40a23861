import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/** Counts the window's requests of one method and path from now on. */
function countRequests(method: string, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) count++;
  });
  return () => count;
}

async function userId(name: string): Promise<number> {
  const users = await server.app.users.list(server.app.ownerContext());
  return users.find((u) => u.username === name)!.id;
}

describe('Users in the window', () => {
  it('sends one request when Create is double-clicked', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    const posts = countRequests('POST', '/ui/api/users');
    await page.getByRole('textbox', { name: 'Name' }).fill('neu');
    await page.getByLabel('Initial password').fill('neu-password-1');
    await page.getByRole('button', { name: 'Create' }).dblclick();
    await expect.poll(() => page.getByTestId('user-neu').isVisible()).toBe(true);
    expect(posts()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('sends one request when Set password is double-clicked', async () => {
    await server.addUser('erika', 'EDITOR');
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    const puts = countRequests('PUT', `/ui/api/users/${await userId('erika')}/password`);
    await page.getByRole('button', { name: 'Actions erika' }).click();
    await page.getByRole('menuitem', { name: 'Reset password' }).click();
    await page.getByLabel('New password (erika)').fill('erika-new-password-1');
    await page.getByRole('button', { name: 'Set password' }).dblclick();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Password set.' }).isVisible())
      .toBe(true);
    expect(puts()).toBe(1);
  });

  it('sends one request when a role is chosen again before the first change is answered', async () => {
    await server.addUser('erika', 'EDITOR');
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    const path = `/ui/api/users/${await userId('erika')}/role`;
    const puts = countRequests('PUT', path);
    // The answer is held until a second choice was tried: the select shows the old role until it
    // comes, inviting one.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await page.route(`**${path}`, async (route) => {
      await answered;
      await route.continue();
    });
    const select = page.getByRole('combobox', { name: 'Role erika' });
    const choose = async (timeout: number) => {
      await select.click({ timeout });
      await page.getByRole('option', { name: 'VIEWER' }).click({ timeout });
    };
    await choose(10_000);
    await choose(500).catch(() => undefined);
    answer();
    await expect.poll(() => select.inputValue()).toBe('VIEWER');
    expect(puts()).toBe(1);
  });

  it('sends one request when Disable or Enable is double-clicked', async () => {
    await server.addUser('erika', 'EDITOR');
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    const id = await userId('erika');
    const row = page.getByTestId('user-erika');
    for (const [action, state] of [
      ['Disable', 'disabled'],
      ['Enable', 'active'],
    ] as const) {
      const posts = countRequests('POST', `/ui/api/users/${id}/${action.toLowerCase()}`);
      await page.getByRole('button', { name: 'Actions erika' }).click();
      await page.getByRole('menuitem', { name: action }).dblclick();
      await expect.poll(() => row.getByText(state, { exact: true }).isVisible()).toBe(true);
      expect(posts(), action).toBe(1);
    }
  });
});
