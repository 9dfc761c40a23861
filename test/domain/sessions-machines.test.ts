import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSystemStore } from '../../src/app/system-store.js';
import { migrate, openSqlite } from '../../src/db/sqlite.js';
import { systemMigrations } from '../../src/db/system.migrations.js';
import type { SystemDatabase } from '../../src/db/system.schema.js';
import { ManualClock } from '../../src/domain/clock.js';
import { errorStatus } from '../../src/domain/error-codes.js';
import { UnauthorizedError } from '../../src/domain/errors.js';
import { hashToken, SessionService, TOKEN_LIFETIME_MS } from '../../src/domain/sessions/session.service.js';
import { removeDir, tempDir } from '../helpers/temp.js';
import { LOCAL, PASSWORD, twoInstances, type TwoInstances } from './sessions-fixture.js';

/**
 * "Another machine" is another pim instance on the same system database (decisions.md): two
 * SessionServices with different machine ids on one data folder's database.
 */

let t: TwoInstances | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const elsewhere = {
  detailCode: 'LOGGED_IN_ELSEWHERE',
  message: "User 'alice' is already logged in on another machine",
};

describe('logging in on another instance', () => {
  it('is refused with 401 LOGGED_IN_ELSEWHERE while a token of the other instance is live, and allowed after its logout', async () => {
    t = await twoInstances();
    const { a, b } = t;
    const first = await a.sessions.login('alice', PASSWORD.alice, LOCAL);

    const refused = b.sessions.login('alice', PASSWORD.alice, LOCAL);
    await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(refused).rejects.toMatchObject(elsewhere);
    expect(errorStatus('LOGGED_IN_ELSEWHERE')).toBe(401);
    await expect(b.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);
    // Other users are not concerned.
    await expect(b.sessions.login('bob', PASSWORD.bob, LOCAL)).resolves.toMatchObject({ username: 'bob' });

    await a.sessions.logout(await a.sessions.authenticate(first.token));
    const moved = await b.sessions.login('alice', PASSWORD.alice, LOCAL);
    await expect(b.sessions.authenticate(moved.token)).resolves.toMatchObject({ username: 'alice' });
    // Now the first instance is "another machine".
    await expect(a.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);
  });

  it('is refused while a desktop session of the other instance is live, and allowed after its logout', async () => {
    t = await twoInstances();
    const { a, b } = t;
    const desktop = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await expect(b.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);
    await expect(b.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);
    // The desktop session of the other instance is not touched by the refused attempts.
    expect(a.sessions.desktopUser()).toMatchObject({ username: 'alice' });

    await a.sessions.logoutDesktop(desktop.token);
    await expect(b.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL)).resolves.toMatchObject({
      user: { username: 'alice' },
    });
  });

  it('is allowed once the session on the other instance expired (24 hours from its login)', async () => {
    t = await twoInstances();
    const { a, b, clock } = t;
    await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    clock.advance(TOKEN_LIFETIME_MS - 1);
    await expect(b.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);
    clock.advance(1);
    await expect(b.sessions.login('alice', PASSWORD.alice, LOCAL)).resolves.toMatchObject({
      username: 'alice',
    });
  });

  it('is allowed once an administrator on either instance ended the sessions of the user', async () => {
    t = await twoInstances();
    const { a, b, owner, ids } = t;
    const token = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    const desktop = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.sessions.authenticate(token.token); // cached on A
    await expect(b.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(elsewhere);

    expect(await b.sessions.endSessionsOf(owner, ids.alice)).toBe(2);
    await expect(b.sessions.login('alice', PASSWORD.alice, LOCAL)).resolves.toMatchObject({
      username: 'alice',
    });

    // Instance A learns of the other process's change when it clears its cache (the application does
    // so when the database changed): then the token and the window's session are refused, and the
    // window hears why.
    a.sessions.clearCache();
    await expect(a.sessions.authenticate(token.token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
    await expect(a.sessions.authenticateDesktop(desktop.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(a.ended).toEqual([{ username: 'alice', reason: 'sessions-ended' }]);
    expect(a.sessions.desktopUser()).toBeUndefined();
  });

  it('of two logins racing on two instances, exactly one opens a session', async () => {
    t = await twoInstances({ sharedConnection: true });
    const { a, b } = t;
    for (const [first, second] of [
      [
        () => a.sessions.login('alice', PASSWORD.alice, LOCAL),
        () => b.sessions.login('alice', PASSWORD.alice, LOCAL),
      ],
      [
        () => a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL),
        () => b.sessions.login('bob', PASSWORD.bob, LOCAL),
      ],
    ] as const) {
      const results = await Promise.allSettled([first(), second()]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ detailCode: 'LOGGED_IN_ELSEWHERE' });
    }
  });
});

describe('tokens across instances', () => {
  it('a token is valid only on the instance that issued it: elsewhere 401 TOKEN_INVALID with a clear sentence', async () => {
    t = await twoInstances();
    const { a, b } = t;
    const { token } = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    const refused = b.sessions.authenticate(token);
    await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(refused).rejects.toMatchObject({
      detailCode: 'TOKEN_INVALID',
      message: 'This token was issued by another pim instance; log in to this one',
    });
    await expect(a.sessions.authenticate(token)).resolves.toMatchObject({ username: 'alice', kind: 'token' });

    const desktop = await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    await expect(b.sessions.authenticateDesktop(desktop.token)).rejects.toMatchObject({
      detailCode: 'TOKEN_INVALID',
    });
    expect(b.sessions.desktopUser()).toBeUndefined();
  });

  it('logins on the same instance are allowed from any client address, each with its own token', async () => {
    t = await twoInstances();
    const { a } = t;
    const tokens = [];
    for (const client of [
      { address: '10.0.0.1' },
      { address: '10.0.0.2' },
      { address: '::ffff:192.168.1.7' },
      { address: '::1', origin: 'http://localhost:5173' },
    ]) {
      tokens.push((await a.sessions.login('alice', PASSWORD.alice, client)).token);
    }
    await a.sessions.loginDesktop('alice', PASSWORD.alice, { address: '10.0.0.3' });
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) {
      await expect(a.sessions.authenticate(token)).resolves.toMatchObject({ username: 'alice' });
    }
  });
});

describe('sessions from before machine ids (migration 0002)', () => {
  it('count as this instance: their tokens stay valid on it', async () => {
    const dir = tempDir('pim-legacy-');
    try {
      // A data folder of the previous version: the first schema, a user and a live session.
      const old = openSqlite<SystemDatabase>(join(dir, 'system.sqlite'));
      await migrate(old, { '0001_initial': systemMigrations['0001_initial']! });
      await old.close();
      const token = randomUUID();
      const raw = new Database(join(dir, 'system.sqlite'));
      raw
        .prepare(
          "INSERT INTO user (username, password_hash, role, created_at) VALUES ('old', 'x', 'EDITOR', ?)",
        )
        .run('2026-03-01T00:00:00.000Z');
      raw
        .prepare('INSERT INTO session VALUES (?, 1, ?, ?, ?)')
        .run(hashToken(token), '2026-03-02T07:00:00.000Z', '2026-03-03T07:00:00.000Z', 'localhost');
      raw.close();

      const handle = await openSystemStore(dir);
      try {
        const clock = new ManualClock(new Date('2026-03-02T08:00:00.000Z'));
        const sessions = new SessionService(handle.db, clock, { machineId: randomUUID() });
        await expect(sessions.authenticate(token)).resolves.toMatchObject({ username: 'old', kind: 'token' });
        const users = await handle.db.selectFrom('user').select(['disabled', 'last_login_at']).execute();
        expect(users).toEqual([{ disabled: 0, last_login_at: null }]);
      } finally {
        await handle.close();
      }
    } finally {
      removeDir(dir);
    }
  });
});
