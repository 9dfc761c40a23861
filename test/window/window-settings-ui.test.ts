import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { openSettingsDialog, windowPagePerTest } from '../helpers/window-page.js';

// Screenshots of the states these tests reach, to look at (not the README's).
const SHOTS = process.env.PIM_SHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'pim-settings-'));

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

describe('Settings › Rest API in the window', () => {
  it('refuses a port outside 1024–65535 at the field and never saves another one', async () => {
    const dialog = await openSettingsDialog(page, server);
    const before = await server.app.settings.get('rest.port');
    const restBefore = server.app.rest.address();
    for (const typed of ['80', '99999']) {
      await dialog.getByLabel('Port').fill(typed);
      await dialog.getByRole('button', { name: 'Save' }).click();
      const error = dialog.getByText('The port must be a whole number from 1024 to 65535.');
      await expect.poll(() => error.isVisible()).toBe(true);
      expect(await dialog.getByLabel('Port').getAttribute('aria-invalid')).toBe('true');
      // What the user typed stays; nothing was corrected, saved or moved.
      expect(await dialog.getByLabel('Port').inputValue()).toBe(typed);
      expect(await server.app.settings.get('rest.port')).toBe(before);
      expect(server.app.rest.address()).toEqual(restBefore);
    }
    await page.screenshot({ path: `${SHOTS}/port-error.png` });
  });

  it('shows an invalid, empty or over-long address under Address, not under Port', async () => {
    const dialog = await openSettingsDialog(page, server);
    const address = dialog.getByRole('textbox', { name: 'Address' });
    const cases: [string, string][] = [
      ['not a host!', 'The address must be an IP address or a host name.'],
      ['', 'Address must not be empty.'],
      ['a'.repeat(254), 'Address must be at most 253 characters long.'],
    ];
    for (const [typed, message] of cases) {
      await address.fill(typed);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
      // The message sits in Address's own wrapper (label, input, error), not Port's.
      const wrapper = () => address.evaluate((el) => el.closest('.mantine-InputWrapper-root')?.textContent);
      await expect.poll(wrapper).toContain(message);
      expect(await dialog.getByLabel('Port').getAttribute('aria-invalid')).not.toBe('true');
      if (typed === 'not a host!') await page.screenshot({ path: `${SHOTS}/address-error.png` });
    }
    expect(await server.app.settings.get('rest.host')).toBe('127.0.0.1');
  });

  it('warns of an address other machines can reach only when the address is valid', async () => {
    const dialog = await openSettingsDialog(page, server);
    const address = dialog.getByRole('textbox', { name: 'Address' });
    const warning = dialog.getByText('Other machines can reach the REST server at this address.');
    await address.fill('0.0.0.0');
    await expect.poll(() => warning.isVisible()).toBe(true);
    for (const typed of ['not a host!', '0.0.0.0:8765', '[::1]']) {
      await address.fill(typed);
      await expect.poll(() => warning.count()).toBe(0);
    }
    // Refused by the server: its field error, and still no warning.
    await address.fill('not a host!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    expect(await warning.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/address-error-no-warning.png` });
    for (const typed of ['::', 'pim.example.org']) {
      await address.fill(typed);
      await expect.poll(() => warning.isVisible()).toBe(true);
    }
  });
});
