import { readFileSync } from 'node:fs';
import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorText } from '../../src/ui/error-text.js';
import { UNREACHABLE, WindowError } from '../../src/ui/window-error.js';

const locale = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../../src/ui/locales/${lang}.json`, import.meta.url), 'utf8')) as object;

/** The window's own locales, as i18n.ts loads them. */
let de: TFunction;
let en: TFunction;
beforeAll(async () => {
  const i18n = createInstance();
  await i18n.init({
    resources: { en: { translation: locale('en') }, de: { translation: locale('de') } },
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
  de = i18n.getFixedT('de');
  en = i18n.getFixedT('en');
});

const refusal = (code: string, details = {}, message = 'The server’s English sentence') =>
  new WindowError(message, code, 400, details);

describe("the window's text for a refusal (src/ui/error-text.ts)", () => {
  it('says the codes it knows in the user’s language', () => {
    expect(errorText(de, refusal('FORBIDDEN'))).toBe('Ihrer Rolle fehlt das dafür nötige Recht.');
    expect(errorText(de, refusal('USER_NOT_FOUND'))).toBe('Diesen Benutzer gibt es nicht (mehr).');
    expect(errorText(en, refusal('INVALID_CREDENTIALS'))).toBe('Wrong user name or password.');
  });

  it('counts the minutes to wait after too many failed logins, in plural forms', () => {
    const wait = (seconds: number) => refusal('TOO_MANY_FAILED_LOGINS', { retryAfterSeconds: seconds });
    expect(errorText(de, wait(900))).toBe(
      'Zu viele fehlgeschlagene Anmeldungen: Versuchen Sie es in 15 Minuten wieder.',
    );
    expect(errorText(en, wait(30))).toBe('Too many failed logins: try again in 1 minute.');
  });

  it('says a schema rule with the field’s label, and keeps the sentence for what it cannot say', () => {
    const rule = (field: string, params: object) => refusal('VALIDATION_FAILED', { field, params });
    expect(errorText(de, rule('password', { rule: 'minLength', limit: 1 }))).toBe(
      'Passwort darf nicht leer sein.',
    );
    expect(errorText(de, rule('rest.host', { rule: 'maxLength', limit: 253 }))).toBe(
      'Adresse darf höchstens 253 Zeichen lang sein.',
    );
    expect(errorText(de, rule('role', { rule: 'enum' }))).toBe('The server’s English sentence');
    expect(errorText(de, refusal('VALIDATION_FAILED'))).toBe('The server’s English sentence');
    expect(errorText(de, refusal('SOMETHING_NEW'))).toBe('The server’s English sentence');
  });

  it('says a port that cannot be bound by why, and that pim cannot be reached', () => {
    const params = { port: 9000, host: '127.0.0.1', reason: 'EACCES' };
    expect(errorText(de, refusal('PORT_IN_USE', { field: 'port', params }))).toBe(
      'Port 9000 auf 127.0.0.1 darf pim nicht verwenden (keine Berechtigung).',
    );
    expect(errorText(de, new WindowError('Failed to fetch', UNREACHABLE, 0))).toBe(
      'pim ist nicht erreichbar. Läuft es noch?',
    );
  });
});
