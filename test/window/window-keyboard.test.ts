import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type TestServer } from '../helpers/server.js';
import {
  chooseMenu,
  chooseMenuByKeyboard,
  loginInWindow,
  windowPagePerTest,
} from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/** The focused element, as tag and accessible text. */
const focused = () =>
  page.locator('body').evaluate((body) => {
    const el = body.ownerDocument.activeElement;
    return el ? `${el.tagName} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}` : '';
  });

describe('the window with the keyboard', () => {
  it('puts the focus on the main heading after login, and back on the menu after Escape closes Settings', async () => {
    await page.goto(server.windowUrl);
    await page.getByLabel('User name').fill('admin');
    await page.getByRole('textbox', { name: 'Password' }).fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('H1 Products of Test');

    const settings = page.getByRole('button', { name: 'Settings', exact: true });
    await chooseMenuByKeyboard(page, settings, page.getByRole('menuitem', { name: 'Settings…' }));
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => dialog.evaluate((el) => el.matches(':focus-within'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => settings.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });

  it('resets a password with the keyboard: focus in the form, Escape and Cancel close it, success is said', async () => {
    await server.addUser('erika', 'EDITOR');
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    const openForm = async () => {
      await page.getByRole('button', { name: 'Actions erika' }).click();
      await page.getByRole('menuitem', { name: 'Reset password' }).click();
      const field = page.getByLabel('New password (erika)');
      await expect.poll(() => field.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
      return field;
    };
    const field = await openForm();
    await page.keyboard.press('Escape');
    await expect.poll(() => field.count()).toBe(0);

    await openForm();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => field.count()).toBe(0);

    await openForm();
    await page.keyboard.type('erika-new-password-1');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Password set.' }).isVisible())
      .toBe(true);
    expect(await field.count()).toBe(0);
    const token = await server.login('erika', 'erika-new-password-1');
    expect(token).toBeTruthy();
  });
});
