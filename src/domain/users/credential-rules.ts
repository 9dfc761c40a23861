import { ValidationError } from '../errors.js';
import { unstorableCharacterError, unstorableCharacterRule } from '../validation/unstorable-character.js';

export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 1024;

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
