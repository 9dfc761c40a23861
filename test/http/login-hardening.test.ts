import { scryptSync } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// Passwords hashed at the production cost, not the tests' cheap one (vitest.config.ts): the stored
// parameters are checked, and a flood must find verifications still under way to be refused.
vi.stubEnv('PIM_TEST_WEAK_PASSWORD_HASHES', '');
// The files after this one in the same worker (vitest.config.ts: no isolation) hash cheaply again.
afterAll(() => {
  vi.unstubAllEnvs();
});

/**
 * Logins under attack: parallel guessing, password spraying, lock-out attempts from other web
 * pages, floods of expensive verifications, tampered hashes, racing logins.
 */

let server: TestServer;

beforeEach(async () => {
  server = await startServer({ setup: 'no-workspace' });
  await server.addUser('target', 'EDITOR', 'target-password');
});

afterEach(async () => {
  await server.stop();
});

const login = (username: string, password: string, headers: Record<string, string> = {}) =>
  server.request<{ token: string }>('POST', '/api/auth/login', { body: { username, password }, headers });

function count(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** The stored hash of user `target`, read and written as an attacker with database access would. */
async function storedHash(): Promise<string> {
  const { rows } = await sql<{ password_hash: string }>`
    SELECT password_hash FROM "user" WHERE username = 'target'`.execute(server.app.stores.shared);
  return rows[0]!.password_hash;
}

async function storeHash(hash: string): Promise<void> {
  await sql`UPDATE "user" SET password_hash = ${hash} WHERE username = 'target'`.execute(
    server.app.stores.shared,
  );
}

describe('the login throttle', () => {
  it('lets a burst of 50 parallel wrong passwords try at most 10 times; the rest get 429 with Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login('target', `guess-${i}`)));
    const counts = count(answers.map((a) => a.status));
    expect(counts).toEqual({ 401: 10, 429: 40 });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ success: false, code: 'TOO_MANY_FAILED_LOGINS' });
    }
    // Locked for this client, even with the right password.
    expect((await login('target', 'target-password')).status).toBe(429);
  });

  it('caps failures per client across user names (password spraying)', async () => {
    for (let i = 0; i < 50; i++) expect((await login(`nobody-${i}`, 'guess')).status).toBe(401);
    const next = await login('someone-new', 'guess');
    expect(next.status).toBe(429);
    expect((await login('target', 'target-password')).status).toBe(429);
  });

  it('keys failures by channel: a web page cannot lock out scripts, nor escape the limit by inventing Origins', async () => {
    // Every attempt from a new Origin: still one limit for all web pages of this address.
    for (let i = 0; i < 10; i++) {
      expect((await login('target', `guess-${i}`, { origin: `https://evil-${i}.example` })).status).toBe(401);
    }
    expect((await login('target', 'target-password', { origin: 'https://evil-new.example' })).status).toBe(
      429,
    );
    expect((await login('target', 'target-password', { origin: 'http://127.0.0.1:8764' })).status).toBe(429);
    // The user's scripts (no Origin) are not locked.
    expect((await login('target', 'target-password')).status).toBe(200);
  });

  it('a successful login takes its reserved attempt back: the failures before it are forgiven', async () => {
    for (let i = 0; i < 9; i++) expect((await login('target', `guess-${i}`)).status).toBe(401);
    expect((await login('target', 'target-password')).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login('target', `again-${i}`)).status).toBe(401);
    expect((await login('target', 'target-password')).status).toBe(200);
  });
});

describe('bounded password verifications', () => {
  it('refuses a flood of logins beyond the bound at once with 503 LOGIN_BUSY, and a real login still succeeds', async () => {
    // 200 at once from web pages (one limit for all of them): the bound lets a few verify and refuses
    // the rest at once (503), giving their reservations back, so the limit is never reached.
    const flood = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        login(`ghost-${i}`, 'guess', { origin: `https://site-${i}.example` }),
      ),
    );
    const counts = count(flood.map((a) => a.status));
    expect(counts[503]).toBeGreaterThan(0);
    expect(counts[401]).toBeGreaterThan(0);
    expect((counts[401] ?? 0) + (counts[503] ?? 0)).toBe(200);
    const busy = flood.find((a) => a.status === 503)!;
    expect(busy.body).toMatchObject({ success: false, code: 'LOGIN_BUSY' });
    expect(busy.headers.get('retry-after')).toBe('1');
    // Busy refusals are not failed attempts: the real user is not throttled by them.
    const real = await login('target', 'target-password');
    expect(real.status).toBe(200);
  });
});

describe('stored password hashes', () => {
  it('refuses a login against a hash with tampered parameters with 401, never a 500', async () => {
    const tampered = [
      '$argon2id$v=19$m=4194304,p=1,t=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
      '$argon2id$v=19$m=19456,p=1,t=0$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
      '$argon2id$v=19$m=19456,p=200,t=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA',
      'scrypt$1073741824$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==',
      'scrypt$16385$8$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==',
      'scrypt$16384$0$1$c2FsdA==$aGFzaGhhc2hoYXNoaGFzaA==',
      'scrypt$16384$8$1$!!!$aGFzaGhhc2hoYXNoaGFzaA==',
      '$argon2id$garbage',
    ];
    for (const hash of tampered) {
      await storeHash(hash);
      const answer = await login('target', 'target-password');
      expect(answer.status, hash).toBe(401);
      expect(answer.body.code).toBe('INVALID_CREDENTIALS');
    }
  });

  it('stores argon2id hashes and upgrades an older scrypt hash at the next successful login', async () => {
    const stored = storedHash;
    expect(await stored()).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('target-password', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const legacy = ['scrypt', 2 ** 14, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await storeHash(legacy);
    expect((await login('target', 'wrong-password')).status).toBe(401);
    expect(await stored()).toBe(legacy);
    expect((await login('target', 'target-password')).status).toBe(200);
    expect(await stored()).toMatch(/^\$argon2id\$/);
    expect((await login('target', 'target-password')).status).toBe(200);
  });
});

describe('sessions', () => {
  it('logins racing from two client addresses on this instance both open a session', async () => {
    // Of two logins racing on two instances exactly one wins: test/domain/sessions-machines.test.ts.
    const sessions = server.app.sessions;
    const results = await Promise.allSettled([
      sessions.login('target', 'target-password', '10.0.0.1'),
      sessions.login('target', 'target-password', '10.0.0.2'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });

  it('every 401 carries WWW-Authenticate: Bearer, with error="invalid_token" for a bad or ended token', async () => {
    const missing = await server.request('GET', '/api/workspace');
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="pim"');
    const unknown = await server.request('GET', '/api/workspace', {
      token: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.headers.get('www-authenticate')).toMatch(/^Bearer realm="pim", error="invalid_token"/);
    const malformed = await server.request('GET', '/api/workspace', {
      headers: { authorization: 'Bearer x' },
    });
    expect(malformed.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const token = await server.login();
    await server.request('POST', '/api/auth/logout', { token });
    const ended = await server.request('GET', '/api/workspace', { token });
    expect(ended.status).toBe(401);
    expect(ended.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const expiring = await server.login();
    server.clock.advance(24 * 60 * 60 * 1000);
    const expired = await server.request('GET', '/api/workspace', { token: expiring });
    expect(expired.body.code).toBe('TOKEN_EXPIRED');
    expect(expired.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const wrong = await login('target', 'nope');
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="pim"');
  });

  it('login has its own small body limit', async () => {
    const big = await server.request('POST', '/api/auth/login', {
      body: { username: 'target', password: 'x'.repeat(20 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      success: false,
      error: 'Request body is larger than the limit of 16 KiB',
    });
  });
});
