import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { chooseMenu, loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

// Screenshots of the states these tests reach, to look at (not the README's).
const SHOTS = process.env.PIM_SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'pim-connection-'));

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

describe('the window when pim cannot be reached', () => {
  it('does not claim a logout the server never confirmed, and stays logged in', async () => {
    await loginInWindow(page, server);
    await page.route('**/ui/api/session/logout', (route) => route.abort('connectionrefused'));
    await chooseMenu(page, 'File', 'Log out');
    const failed = page.getByRole('alert').filter({ hasText: 'Could not log out: pim cannot be reached' });
    await expect.poll(() => failed.isVisible()).toBe(true);
    expect(await failed.textContent()).toContain('You are still logged in.');
    expect(await page.getByText('You have logged out.').count()).toBe(0);
    expect(await page.getByTestId('status-user').textContent()).toBe('admin');
    expect(server.app.sessions.desktopUser()?.username).toBe('admin');
    // Once the server answers again, the logout goes through.
    await page.unroute('**/ui/api/session/logout');
    await chooseMenu(page, 'File', 'Log out');
    await expect.poll(() => page.getByText('You have logged out.').isVisible()).toBe(true);
    expect(server.app.sessions.desktopUser()).toBeUndefined();
  });

  it('says the connection is lost, shows no stale or made-up facts, and recovers when pim is back', async () => {
    await loginInWindow(page, server);
    const port = Number(new URL(server.windowUrl).port);
    await server.app.window.stop();
    await expect
      .poll(() => page.getByTestId('status-connection').textContent())
      .toBe('Connection to pim lost: reconnecting…');
    expect(await page.getByTestId('status-rest').textContent()).toBe('unknown');
    expect(await page.getByTestId('status-database').textContent()).toBe('unknown');
    await page.screenshot({ path: `${SHOTS}/connection-lost.png` });

    await chooseMenu(page, 'Users', 'Manage users…');
    const unreachable = page.getByRole('alert').filter({ hasText: 'pim cannot be reached' });
    await expect.poll(() => unreachable.isVisible()).toBe(true);
    expect(await page.getByText('Failed to fetch').count()).toBe(0);

    await page.screenshot({ path: `${SHOTS}/users-unreachable.png` });
    await chooseMenu(page, 'Settings', 'Settings…');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const unread = dialog.getByRole('alert').filter({
      hasText: 'The settings could not be read: pim cannot be reached. Is it still running?',
    });
    await expect.poll(() => unread.isVisible()).toBe(true);
    // No invented values in place of the saved ones.
    expect(await dialog.getByLabel('Port').count()).toBe(0);
    expect(await dialog.getByTestId('rest-state').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/settings-unreachable.png` });
    await page.keyboard.press('Escape');
    // The dialog leaves with a transition; until it has, its alert is still on the page.
    await expect.poll(() => dialog.count()).toBe(0);

    await server.app.window.reconcile({ host: '127.0.0.1', port });
    await expect.poll(() => page.getByTestId('status-connection').count()).toBe(0);
    await expect.poll(() => page.getByTestId('status-rest').textContent()).toMatch(/^running at /);
    await expect.poll(() => page.getByTestId('user-admin').isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('returns to the login screen with the reason when the session ended while pim was away', async () => {
    await loginInWindow(page, server);
    await chooseMenu(page, 'Users', 'Manage users…');
    await expect.poll(() => page.getByTestId('user-admin').isVisible()).toBe(true);
    const port = Number(new URL(server.windowUrl).port);
    await server.app.window.stop();
    await expect.poll(() => page.getByTestId('status-connection').isVisible()).toBe(true);
    // As `pim user logout admin` does while the window's server is down.
    const ctx = server.app.ownerContext();
    const admin = (await server.app.users.list(ctx)).find((u) => u.username === 'admin')!;
    await server.app.sessions.endSessionsOf(ctx, admin.id);
    await server.app.window.reconcile({ host: '127.0.0.1', port });
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('Your session has ended. Please log in again.').isVisible()).toBe(true);
    expect(await page.getByText('The desktop session has ended').count()).toBe(0);
  });

  it('returns to the login screen when an ordinary request is refused with 401', async () => {
    // The push channel is cut and the session check says all is well, so only an ordinary
    // request (the status, refetched after each reconnect) can learn that the session ended.
    await page.route('**/ui/api/events', (route) => route.abort('connectionrefused'));
    await loginInWindow(page, server);
    await page.route('**/ui/api/session', (route) =>
      route.fulfill({ json: { success: true, data: { user: { username: 'admin' } } } }),
    );
    const ctx = server.app.ownerContext();
    const admin = (await server.app.users.list(ctx)).find((u) => u.username === 'admin')!;
    await server.app.sessions.endSessionsOf(ctx, admin.id);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('Your session has ended. Please log in again.').isVisible()).toBe(true);
  });
});
