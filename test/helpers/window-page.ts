import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN_PASSWORD, type TestServer } from './server.js';

/** Logs in through the window's login screen and waits for the shell (the status bar names the user). */
export async function loginInWindow(
  page: Page,
  server: TestServer,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<void> {
  await page.goto(server.windowUrl);
  await page.getByLabel('User name').fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.getByTestId('status-user').textContent()).toBe(username);
}

/** Opens a menu of the menu bar and picks an item. */
export async function chooseMenu(page: Page, name: string, item: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
