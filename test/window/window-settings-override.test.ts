import { createServer, type Server } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { openSettingsDialog, windowPagePerTest } from '../helpers/window-page.js';

/**
 * Settings › Rest API while `pim start --port` replaces the stored port (the test servers start
 * with --port 0). The stored port is held by another program, as when a second pim runs beside
 * the first with --port.
 */
const SHOTS = shotsDir('settings-override');

let blocker: Server;
let savedPort: number;
beforeAll(async () => {
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  savedPort = (blocker.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

let server: TestServer;
let page: Page;
windowPagePerTest(
  (opened) => ({ server, page } = opened),
  () => ({ savedRestPort: savedPort }),
);

describe('Settings › Rest API under a start option', () => {
  it('shows the port in effect beside the saved one, and says what saving does', async () => {
    const dialog = await openSettingsDialog(page, server);
    const running = server.app.rest.address()!.port;
    expect(await dialog.getByLabel('Port').inputValue()).toBe(String(savedPort));
    const note = dialog.getByTestId('rest-override');
    await expect
      .poll(() => note.textContent())
      .toContain(
        `pim was started with --port 0: for this run the REST server uses port ${running}, not the saved port ${savedPort}.`,
      );
    expect(await note.textContent()).toContain('While a saved value stays unchanged, the start option keeps');
    await page.screenshot({ path: `${SHOTS}/settings-override.png` });
  });

  it('saves unchanged values without probing the saved port: the server stays where the start put it', async () => {
    const dialog = await openSettingsDialog(page, server);
    const before = server.app.rest.address();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('Saved.').isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(server.app.rest.address()).toEqual(before);
    expect(await dialog.getByTestId('rest-override').isVisible()).toBe(true);
  });

  it('moves to a newly saved port at once, and the note goes', async () => {
    const dialog = await openSettingsDialog(page, server);
    const port = await freePort();
    await dialog.getByLabel('Port').fill(String(port));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => server.app.rest.address()?.port).toBe(port);
    await expect.poll(() => dialog.getByTestId('rest-override').count()).toBe(0);
  });
});
