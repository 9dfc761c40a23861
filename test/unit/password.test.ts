import { scryptSync } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  ARGON2_PARAMETERS,
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../src/domain/users/password.js';

// What an installation does: the tests' cheap hashes (vitest.config.ts) only where a test asks for them.
vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', '');
// The files after this one in the same worker (vitest.config.ts: no isolation) hash cheaply again.
afterAll(() => {
  vi.unstubAllEnvs();
});

describe('password hashing (argon2id)', () => {
  it("stores PHC argon2id strings with OWASP's parameters and a random salt, never the password", async () => {
    expect(ARGON2_PARAMETERS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const [a, b] = await Promise.all([hashPassword('s3cret pässword'), hashPassword('s3cret pässword')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(needsRehash(a)).toBe(false);
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
      '$argon2id$v=19$m=19456,p=1,t=2$c2FsdA$aGFzaA',
      '$argon2i$v=19$m=19456,p=1,t=2$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g',
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

describe('earlier hashes', () => {
  it('verifies scrypt hashes of earlier versions and asks for their rehash', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('old-password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const legacy = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('old-password', legacy)).toBe(true);
    expect(await verifyPassword('other', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=4096,p=1,t=3$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g')).toBe(
      true,
    );
  });
});

describe("the test suite's cheap hashes (PIM_TEST_WEAK_PASSWORD_HASHES=1)", () => {
  it('hash and verify with the small parameters, and only exactly "1" turns them on', async () => {
    vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', '1');
    const weak = await hashPassword('pw');
    expect(weak).toMatch(/^\$argon2id\$v=19\$m=64,p=1,t=1\$/);
    expect(await verifyPassword('pw', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(false);
    for (const value of ['', '0', 'true', 'yes']) {
      vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', value);
      expect(await hashPassword('pw')).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      // A cheap hash in an installation is replaced at the next login.
      expect(needsRehash(weak)).toBe(true);
    }
    vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', '');
  });
});
