import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { windowPagePerTest } from '../helpers/window-page.js';

const SHOTS = shotsDir('errors-de');

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

/** The login screen in German (the choice is kept), filled in and sent. */
async function loginInGerman(password: string): Promise<void> {
  await page.goto(server.windowUrl);
  await page.locator('label', { hasText: 'Deutsch' }).click();
  await page.getByLabel('Benutzername').fill('admin');
  await page.getByRole('textbox', { name: 'Passwort' }).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
}

async function chooseMenuDe(name: string, item: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

const alert = () => page.getByRole('alert');

describe("the server's refusals in the German window", () => {
  it('says a wrong password in German, not in English', async () => {
    await loginInGerman('wrong-password');
    await expect.poll(() => alert().textContent()).toBe('Benutzername oder Passwort ist falsch.');
    await page.screenshot({ path: `${SHOTS}/login-wrong-password-de.png` });
  });

  it('says a taken user name, a too long password and the last ADMIN in German', async () => {
    await loginInGerman(ADMIN_PASSWORD);
    await chooseMenuDe('Benutzer', 'Benutzer verwalten…');
    await page.getByRole('textbox', { name: 'Name' }).fill('ADMIN');
    await page.getByLabel('Anfangspasswort').fill('some-password-1');
    await page.getByRole('button', { name: 'Anlegen' }).click();
    await expect.poll(() => alert().textContent()).toBe('Ein Benutzer mit diesem Namen existiert bereits.');

    await page.getByRole('button', { name: 'Aktionen admin' }).click();
    await page.getByRole('menuitem', { name: 'Passwort zurücksetzen' }).click();
    await page.getByLabel('Neues Passwort (admin)').fill('x'.repeat(1025));
    await page.getByRole('button', { name: 'Passwort setzen' }).click();
    await expect
      .poll(() => page.getByText('Passwort darf höchstens 1024 Zeichen lang sein.').isVisible())
      .toBe(true);
    await page.getByRole('button', { name: 'Abbrechen' }).click();

    await page.getByRole('button', { name: 'Aktionen admin' }).click();
    await page.getByRole('menuitem', { name: 'Deaktivieren' }).click();
    await expect
      .poll(() => alert().first().textContent())
      .toBe('Dies ist der letzte aktive ADMIN: Machen Sie zuerst einen anderen Benutzer zum ADMIN.');
    await page.screenshot({ path: `${SHOTS}/users-last-admin-de.png` });
  });

  it('says an empty address and a busy port in German, beside their fields', async () => {
    await loginInGerman(ADMIN_PASSWORD);
    await chooseMenuDe('Einstellungen', 'Einstellungen…');
    const dialog = page.getByRole('dialog', { name: 'Einstellungen' });
    const address = dialog.getByRole('textbox', { name: 'Adresse' });
    await address.fill('');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect.poll(() => dialog.getByText('Adresse darf nicht leer sein.').isVisible()).toBe(true);

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const busy = (blocker.address() as { port: number }).port;
      await address.fill('127.0.0.1');
      await dialog.getByLabel('Port').fill(String(busy));
      await dialog.getByRole('button', { name: 'Speichern' }).click();
      const message = `Port ${busy} auf 127.0.0.1 wird von einem anderen Programm verwendet.`;
      await expect.poll(() => dialog.getByText(message).isVisible()).toBe(true);
      await page.screenshot({ path: `${SHOTS}/settings-busy-port-de.png` });
    } finally {
      blocker.close();
    }
  });
});
