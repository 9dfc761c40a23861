import { ValidationError } from '../errors.js';
import { unstorableCharacterError, unstorableCharacterRule } from '../validation/unstorable-character.js';

export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 1024;

/**
 * Characters no user name may hold: Unicode's "other" categories (controls such as ESC, which
 * `pim user list` would send to an administrator's terminal; format characters such as the
 * zero-width space and bidirectional overrides, which make two names look alike; unassigned,
 * private-use and surrogate code points), every separator and white space, and ':' (HTTP Basic).
 */
const REFUSED_IN_NAME = /[\p{C}\p{Z}\s:]/u;

/**
 * The name a new user gets, or a ValidationError. Names are stored in NFC, so that "é" typed as
 * one character or as "e" plus a combining accent is one name (the unique index compares the
 * stored text). A name whose compatibility form (NFKC) differs, such as fullwidth "ＡＤＭＩＮ" or
 * the ligature "ﬁ", is refused with the plain form to use: it would look like another name, and
 * folding it silently would store a name other than the one typed.
 */
export function checkedUsername(raw: string): string {
  const username = raw.trim().normalize('NFC');
  if (username.length === 0) throw new ValidationError('username must not be empty');
  if (username.length > USERNAME_MAX) {
    throw new ValidationError(`username must be at most ${USERNAME_MAX} characters`);
  }
  const refused = REFUSED_IN_NAME.exec(username)?.[0];
  if (refused !== undefined) {
    throw new ValidationError(
      /[\s:]/.test(refused)
        ? 'username must not contain spaces or colons'
        : `username must not contain the invisible or control character ${codePoint(refused)}`,
    );
  }
  const plain = username.normalize('NFKC');
  if (plain !== username) {
    throw new ValidationError(
      `username must be written with plain characters ('${plain}'), not look-alike compatibility forms`,
    );
  }
  return username;
}

/**
 * The forms to look a login name up by, in order: as typed (so that a name stored before names
 * were normalised keeps logging in exactly as before), then in NFC (how names are stored now).
 */
export function loginNameForms(name: string): string[] {
  const nfc = name.normalize('NFC');
  return nfc === name ? [name] : [name, nfc];
}

/** Whether two names are one for uniqueness: alike in NFC, ignoring the case of ASCII letters. */
export function sameUsername(a: string, b: string): boolean {
  const fold = (name: string) => name.normalize('NFC').replace(/[A-Z]/g, (c) => c.toLowerCase());
  return fold(a) === fold(b);
}

/**
 * Passwords any login accepts: not empty, at most PASSWORD_MAX characters, and none of the
 * characters no adapter takes (U+0000, half of a surrogate pair: REST and the window refuse them
 * at login, so a password holding one could never be used).
 */
export function checkPassword(password: string): void {
  if (password.length === 0) throw new ValidationError('password must not be empty');
  if (password.length > PASSWORD_MAX) {
    throw new ValidationError(`password must be at most ${PASSWORD_MAX} characters`);
  }
  const unstorable = unstorableCharacterError(password);
  if (unstorable) {
    throw new ValidationError(`password ${unstorableCharacterRule(unstorable.params.character)}`);
  }
}

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
