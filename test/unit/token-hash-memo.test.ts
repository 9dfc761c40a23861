import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthenticatedUser } from '../../src/domain/sessions/authenticated-user.js';
import { SessionCache } from '../../src/domain/sessions/session-cache.js';
import { hashToken } from '../../src/domain/sessions/session.service.js';
import { TokenHashMemo } from '../../src/domain/sessions/token-hash-memo.js';

/** hashToken, counting its calls. */
function countingHash() {
  const hash = Object.assign((token: string) => (hash.calls++, hashToken(token)), { calls: 0 });
  return hash;
}

function sessionOf(token: string, userId = 1): AuthenticatedUser {
  return {
    id: userId,
    username: `user${userId}`,
    role: 'EDITOR',
    rights: [],
    createdAt: '2026-01-01T00:00:00Z',
    tokenHash: hashToken(token),
    expiresAt: '2099-01-01T00:00:00Z',
    expiresAtMs: Date.parse('2099-01-01T00:00:00Z'),
    kind: 'token',
  };
}

const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('the token hash memo', () => {
  it('answers every token with its own hash, remembered or not, whatever was remembered before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uuid(), fc.string()), { maxLength: 40 }),
        fc.array(fc.oneof(fc.uuid(), fc.string()), { maxLength: 40 }),
        (remembered, asked) => {
          const memo = new TokenHashMemo(hashToken, 8);
          for (const token of remembered) memo.remember(token, memo.hashOf(token));
          for (const token of [...asked, ...remembered]) expect(memo.hashOf(token)).toBe(hashToken(token));
          expect(memo.size).toBeLessThanOrEqual(8);
        },
      ),
    );
  });

  it('keys by the token as sent: a token differing in one character or its case is hashed itself', () => {
    // A hash that tells case apart, to show which entry answers.
    const memo = new TokenHashMemo((token) => `h(${token})`);
    memo.remember('abc-DEF', 'h(abc-DEF)');
    expect(memo.hashOf('abc-DEF')).toBe('h(abc-DEF)');
    expect(memo.hashOf('abc-def')).toBe('h(abc-def)');
    expect(memo.hashOf('abc-DEG')).toBe('h(abc-DEG)');
  });

  it('hashes a remembered token once, forgets the oldest beyond its capacity and everything on forgetAll', () => {
    const hash = countingHash();
    const memo = new TokenHashMemo(hash, 2);
    for (const token of ['a', 'b']) memo.remember(token, memo.hashOf(token));
    expect(hash.calls).toBe(2);
    memo.hashOf('a');
    memo.hashOf('b');
    expect(hash.calls).toBe(2);
    memo.remember('c', memo.hashOf('c'));
    expect(memo.size).toBe(2);
    memo.hashOf('a'); // the oldest, gone
    expect(hash.calls).toBe(4);
    memo.forgetAll();
    expect(memo.size).toBe(0);
    memo.hashOf('c');
    expect(hash.calls).toBe(5);
  });
});

describe('the session cache by token', () => {
  const load = (user: AuthenticatedUser) => () => Promise.resolve(user);

  it('finds a cached session by its token, hashing the token once while the session stays cached', async () => {
    const hash = countingHash();
    const cache = new SessionCache(hash);
    const token = '0b7e8a52-4bb7-4a3e-9c1b-0f3a9e7d2c11';
    expect(cache.peekToken(token)).toBeUndefined();
    await cache.lookup(hashToken(token), NOW, load(sessionOf(token)));
    const before = hash.calls;
    for (let i = 0; i < 5; i++) expect(cache.peekToken(token)?.tokenHash).toBe(hashToken(token));
    expect(hash.calls).toBe(before + 1);
    // Another token, however alike, is not that session.
    expect(cache.peekToken(token.toUpperCase().replace('0B7E', '0B7F'))).toBeUndefined();
  });

  it.each([
    ['forgetToken', (cache: SessionCache, token: string) => cache.forgetToken(hashToken(token))],
    ['forgetUser', (cache: SessionCache) => cache.forgetUser(1)],
    ['forgetAll', (cache: SessionCache) => cache.forgetAll()],
  ] as const)('answers nothing for a token once %s dropped its session', async (_name, forget) => {
    const hash = countingHash();
    const cache = new SessionCache(hash);
    const token = '5d1c3f0e-7a2b-4c6d-8e9f-a0b1c2d3e4f5';
    await cache.lookup(hashToken(token), NOW, load(sessionOf(token)));
    expect(cache.peekToken(token)).toBeDefined();
    forget(cache, token);
    const before = hash.calls;
    expect(cache.peekToken(token)).toBeUndefined();
    // The memo went with the session: the token was hashed again.
    expect(hash.calls).toBe(before + 1);
  });

  it('answers nothing while distrusted, though the session is cached', async () => {
    const cache = new SessionCache(hashToken);
    const token = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    await cache.lookup(hashToken(token), NOW, load(sessionOf(token)));
    cache.distrust();
    expect(cache.peekToken(token)).toBeUndefined();
  });
});
