import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchBrowser } from './browser.js';
import { ADMIN_PASSWORD, startServer, type StartOptions, type TestServer } from './server.js';

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

/** Logs in and opens Settings; returns the dialog once it shows the saved port. */
export async function openSettingsDialog(page: Page, server: TestServer): Promise<Locator> {
  await loginInWindow(page, server);
  await chooseMenu(page, 'Settings', 'Settings…');
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect.poll(() => dialog.getByLabel('Port').inputValue()).toMatch(/^\d+$/);
  return dialog;
}

/** What a window test works with: its application, and a fresh browser page on its window. */
export interface WindowPage {
  server: TestServer;
  context: BrowserContext;
  page: Page;
}

/**
 * One browser per test file, and per test a fresh application with its window and a fresh page
 * (English, 1280 × 800); `ready` receives them before each test, and they are closed after it.
 * Steps wait at most 10 s, under the test timeout, so that a stuck step fails with what it waited for.
 * `serverOptions`, asked before each test, adds to how the application starts.
 */
export function windowPagePerTest(
  ready: (opened: WindowPage) => void,
  serverOptions: () => StartOptions = () => ({}),
): void {
  let browser: Browser;
  let opened: WindowPage | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser.close());
  beforeEach(async () => {
    const server = await startServer({ ...serverOptions(), window: true });
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    opened = { server, context, page };
    ready(opened);
  });
  afterEach(async () => {
    await opened?.context.close();
    await opened?.server.stop();
    opened = undefined;
  });
}

/**
 * Opens a menu of the menu bar and picks an item with the keyboard only: focus and Enter on the
 * menu, down until the item has the focus, Enter. The menu takes its keys only once it has opened,
 * later than it shows under load, so the focus is polled rather than assumed.
 */
export async function chooseMenuByKeyboard(page: Page, menu: Locator, item: Locator): Promise<void> {
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => item.isVisible()).toBe(true);
  await expect
    .poll(async () => {
      if (await item.evaluate((el) => el.matches(':focus'))) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    })
    .toBe(true);
  await page.keyboard.press('Enter');
}
