import { describe, expect, it } from 'vitest';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../src/domain/users/password.js';

describe('password hashing (scrypt)', () => {
  it('stores scrypt$N$r$p$salt$hash with a random salt, never the password', async () => {
    const [a, b] = await Promise.all([hashPassword('s3cret pässword'), hashPassword('s3cret pässword')]);
    expect(a).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/);
    const [, n, r, p] = a.split('$').map(Number);
    expect(n).toBeGreaterThanOrEqual(2 ** 14);
    expect(r).toBeGreaterThanOrEqual(8);
    expect(p).toBeGreaterThanOrEqual(1);
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
  });

  it('verifies the right password and refuses others', async () => {
    const stored = await hashPassword('right-password');
    expect(await verifyPassword('right-password', stored)).toBe(true);
    for (const other of ['right-passwor', 'right-password ', 'RIGHT-PASSWORD', '']) {
      expect(await verifyPassword(other, stored)).toBe(false);
    }
  });

  it('treats composed and decomposed Unicode forms of a password alike', async () => {
    const stored = await hashPassword('Caf\u00e9');
    expect(await verifyPassword('Cafe\u0301', stored)).toBe(true);
  });

  it('refuses against malformed stored hashes instead of throwing', async () => {
    for (const stored of [
      '',
      'plain-text',
      'bcrypt$10$abc$def',
      'scrypt$$8$1$c2FsdA==$aGFzaA==',
      'scrypt$16384$8$1$c2FsdA==',
    ]) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  it('has a dummy hash (for unknown users) that no typical password matches', async () => {
    const dummy = await dummyPasswordHash();
    expect(await dummyPasswordHash()).toBe(dummy);
    expect(await verifyPassword('', dummy)).toBe(false);
    expect(await verifyPassword('admin', dummy)).toBe(false);
  });
});
