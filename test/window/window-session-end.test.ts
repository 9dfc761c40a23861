import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import type { TestServer } from '../helpers/server.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

describe('the reason the window gives when its session ends', () => {
  it('says the user was disabled when `pim user disable` (another process) disabled them', async () => {
    await server.addUser('editor', 'EDITOR');
    await loginInWindow(page, server, 'editor', 'editor-password');
    const result = await runCliAsync(server.dataDir, ['user', 'disable', 'editor']);
    expect(result.code, result.stderr).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('Your user has been disabled.').isVisible()).toBe(true);
  });

  it('still says an administrator ended the sessions when `pim user logout` did', async () => {
    await server.addUser('editor', 'EDITOR');
    await loginInWindow(page, server, 'editor', 'editor-password');
    const result = await runCliAsync(server.dataDir, ['user', 'logout', 'editor']);
    expect(result.code, result.stderr).toBe(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Log in to pim' }).isVisible()).toBe(true);
    expect(await page.getByText('An administrator ended your sessions.').isVisible()).toBe(true);
  });
});
