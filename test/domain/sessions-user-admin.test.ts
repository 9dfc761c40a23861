import { afterEach, describe, expect, it } from 'vitest';
import { errorStatus } from '../../src/domain/error-codes.js';
import { ConflictError, ForbiddenError } from '../../src/domain/errors.js';
import type { RequestContext } from '../../src/domain/context.js';
import { LOCAL, PASSWORD, twoInstances, type TwoInstances } from './sessions-fixture.js';

/** User administration (right Benutzerverwaltung) and what it does to sessions. */

let t: TwoInstances | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rights', () => {
  it('every administration call needs Benutzerverwaltung: 403 for an EDITOR, changing nothing', async () => {
    t = await twoInstances();
    const { a, ids } = t;
    const editor = t.as('EDITOR', ids.alice);
    const calls: Array<[string, (ctx: RequestContext) => Promise<unknown>]> = [
      ['list', (ctx) => a.users.list(ctx)],
      ['findByName', (ctx) => a.users.findByName(ctx, 'bob')],
      ['setRole', (ctx) => a.users.setRole(ctx, ids.bob, 'ADMIN')],
      ['setPassword', (ctx) => a.users.setPassword(ctx, ids.bob, 'new-password')],
      ['setDisabled', (ctx) => a.users.setDisabled(ctx, ids.bob, true)],
      ['endSessionsOf', (ctx) => a.sessions.endSessionsOf(ctx, ids.bob)],
      ['endSessions', (ctx) => a.users.endSessions(ctx, ids.bob)],
    ];
    const token = await a.sessions.login('bob', PASSWORD.bob, LOCAL);
    for (const [name, call] of calls) {
      const refused = call(editor);
      await expect(refused, name).rejects.toBeInstanceOf(ForbiddenError);
      await expect(refused, name).rejects.toMatchObject({ detailCode: 'FORBIDDEN' });
    }
    expect(errorStatus('FORBIDDEN')).toBe(403);
    const bob = (await a.users.list(t.owner)).find((u) => u.username === 'bob');
    expect(bob).toMatchObject({ role: 'VIEWER', disabled: false });
    await expect(a.sessions.authenticate(token.token)).resolves.toMatchObject({ username: 'bob' });
    await expect(a.sessions.checkCredentials('bob', PASSWORD.bob, LOCAL)).resolves.toMatchObject({
      id: ids.bob,
    });
  });

  it('answers 404 USER_NOT_FOUND for an unknown id or name, and 400 for a bad role or password', async () => {
    t = await twoInstances();
    const { a, owner } = t;
    const notFound = { detailCode: 'USER_NOT_FOUND', message: 'User 999 not found' };
    await expect(a.users.setRole(owner, 999, 'VIEWER')).rejects.toMatchObject(notFound);
    await expect(a.users.setPassword(owner, 999, 'pw')).rejects.toMatchObject(notFound);
    await expect(a.users.setDisabled(owner, 999, true)).rejects.toMatchObject(notFound);
    await expect(a.sessions.endSessionsOf(owner, 999)).rejects.toMatchObject(notFound);
    await expect(a.users.idOf(owner, 'nobody')).rejects.toMatchObject({
      detailCode: 'USER_NOT_FOUND',
      message: "User 'nobody' not found",
    });
    expect(await a.users.findByName(owner, 'nobody')).toBeUndefined();
    expect(await a.users.findByName(owner, 'ALICE')).toMatchObject({ id: t.ids.alice, username: 'alice' });
    expect(errorStatus('USER_NOT_FOUND')).toBe(404);

    await expect(a.users.setRole(owner, t.ids.alice, 'KING')).rejects.toMatchObject({
      detailCode: 'VALIDATION_FAILED',
      message: "role 'KING' is unknown; use one of ADMIN, EDITOR, VIEWER",
    });
    await expect(a.users.setPassword(owner, t.ids.alice, '')).rejects.toMatchObject({
      message: 'password must not be empty',
    });
    await expect(a.users.setPassword(owner, t.ids.alice, 'x'.repeat(1025))).rejects.toMatchObject({
      message: 'password must be at most 1024 characters',
    });
  });
});

describe('list', () => {
  it('gives every user with disabled and lastLoginAt (set by login and loginDesktop)', async () => {
    t = await twoInstances();
    const { a, clock, owner } = t;
    expect(await a.users.list(owner)).toEqual([
      expect.objectContaining({ username: 'admin', role: 'ADMIN', disabled: false, lastLoginAt: null }),
      expect.objectContaining({
        username: 'alice',
        role: 'EDITOR',
        rights: expect.any(Array),
        disabled: false,
      }),
      expect.objectContaining({
        username: 'bob',
        role: 'VIEWER',
        createdAt: expect.any(String),
        lastLoginAt: null,
      }),
    ]);
    await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    const first = clock.now().toISOString();
    clock.advance(60_000);
    await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    await expect(a.sessions.login('admin', 'wrong', LOCAL)).rejects.toBeDefined();
    const users = await a.users.list(owner);
    expect(users.map((u) => u.lastLoginAt)).toEqual([null, first, clock.now().toISOString()]);
  });
});

describe('setRole', () => {
  it("changes the role; the user's cached token has the new rights at its next request", async () => {
    t = await twoInstances();
    const { a, owner, ids } = t;
    const { token } = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    expect((await a.sessions.authenticate(token)).rights).toContain('Bearbeiten');
    const changed = await a.users.setRole(owner, ids.alice, 'VIEWER');
    expect(changed).toMatchObject({ username: 'alice', role: 'VIEWER', rights: ['Lesen'] });
    expect(await a.sessions.authenticate(token)).toMatchObject({ role: 'VIEWER', rights: ['Lesen'] });
  });

  it('refuses to demote the last enabled ADMIN with 409 LAST_ADMIN; a disabled ADMIN does not count', async () => {
    t = await twoInstances();
    const { a, owner, ids } = t;
    const lastAdmin = {
      detailCode: 'LAST_ADMIN',
      message: "User 'admin' is the last enabled ADMIN and cannot be demoted; make another user ADMIN first",
    };
    const refused = a.users.setRole(owner, ids.admin, 'EDITOR');
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject(lastAdmin);
    expect(errorStatus('LAST_ADMIN')).toBe(409);
    await expect(a.users.setDisabled(owner, ids.admin, true)).rejects.toMatchObject({
      detailCode: 'LAST_ADMIN',
      message: "User 'admin' is the last enabled ADMIN and cannot be disabled; make another user ADMIN first",
    });

    await a.users.setRole(owner, ids.alice, 'ADMIN');
    await a.users.setDisabled(owner, ids.alice, true);
    await expect(a.users.setRole(owner, ids.admin, 'VIEWER')).rejects.toMatchObject(lastAdmin);
    await a.users.setDisabled(owner, ids.alice, false);
    await expect(a.users.setRole(owner, ids.admin, 'VIEWER')).resolves.toMatchObject({ role: 'VIEWER' });
    // Now alice is the last one; nothing was changed by the refusals.
    const roles = (await a.users.list(owner)).map((u) => [u.username, u.role, u.disabled]);
    expect(roles).toEqual([
      ['admin', 'VIEWER', false],
      ['alice', 'ADMIN', false],
      ['bob', 'VIEWER', false],
    ]);
    await expect(a.users.setRole(owner, ids.alice, 'EDITOR')).rejects.toMatchObject({
      detailCode: 'LAST_ADMIN',
    });
  });

  it('of two ADMINs demoted at once, exactly one is', async () => {
    t = await twoInstances({ sharedConnection: true });
    const { a, b, owner, ids } = t;
    await a.users.setRole(owner, ids.alice, 'ADMIN');
    const results = await Promise.allSettled([
      a.users.setRole(owner, ids.admin, 'EDITOR'),
      b.users.setDisabled(owner, ids.alice, true),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      detailCode: 'LAST_ADMIN',
    });
    const admins = (await a.users.list(owner)).filter((u) => u.role === 'ADMIN' && !u.disabled);
    expect(admins).toHaveLength(1);
  });
});

describe('setPassword', () => {
  it('replaces the password (the old one is refused, the new one logs in); open sessions stay', async () => {
    t = await twoInstances();
    const { a, owner, ids } = t;
    const { token } = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    await expect(a.users.setPassword(owner, ids.alice, 'brand new pässword')).resolves.toMatchObject({
      username: 'alice',
    });
    await expect(a.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject({
      detailCode: 'INVALID_CREDENTIALS',
    });
    await expect(a.sessions.login('alice', 'brand new pässword', LOCAL)).resolves.toMatchObject({
      username: 'alice',
    });
    await expect(a.sessions.authenticate(token)).resolves.toMatchObject({ username: 'alice' });
  });
});

describe('setDisabled', () => {
  it("disabling ends the user's sessions at once and refuses their logins with 401 USER_DISABLED; enabling lets them in again", async () => {
    t = await twoInstances();
    const { a, b, owner, ids } = t;
    const token = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    await a.sessions.authenticate(token.token); // cached
    const account = await a.users.setDisabled(owner, ids.alice, true);
    expect(account).toMatchObject({ username: 'alice', disabled: true });
    await expect(a.sessions.authenticate(token.token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });

    const disabled = { detailCode: 'USER_DISABLED', message: "User 'alice' is disabled" };
    expect(errorStatus('USER_DISABLED')).toBe(401);
    for (const instance of [a, b]) {
      await expect(instance.sessions.login('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(disabled);
      await expect(instance.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(
        disabled,
      );
      await expect(instance.sessions.checkCredentials('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject(
        disabled,
      );
    }
    // A wrong password says nothing about the account.
    await expect(a.sessions.login('alice', 'wrong', LOCAL)).rejects.toMatchObject({
      detailCode: 'INVALID_CREDENTIALS',
    });
    expect((await a.users.list(owner)).find((u) => u.id === ids.alice)).toMatchObject({ disabled: true });

    await expect(a.users.setDisabled(owner, ids.alice, false)).resolves.toMatchObject({ disabled: false });
    const again = await b.sessions.login('alice', PASSWORD.alice, LOCAL);
    await expect(b.sessions.authenticate(again.token)).resolves.toMatchObject({ username: 'alice' });
    // The tokens ended by disabling stay ended.
    await expect(a.sessions.authenticate(token.token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
  });

  it('disabling on one instance ends the tokens issued by the other (once it cleared its cache)', async () => {
    t = await twoInstances();
    const { a, b, owner, ids } = t;
    const token = await a.sessions.login('bob', PASSWORD.bob, LOCAL);
    await a.sessions.authenticate(token.token);
    await b.users.setDisabled(owner, ids.bob, true);
    a.sessions.clearCache();
    await expect(a.sessions.authenticate(token.token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
  });
});

describe('endSessionsOf', () => {
  it('ends every token and the desktop session of the user, and only theirs; returns how many', async () => {
    t = await twoInstances();
    const { a, owner, ids } = t;
    const tokens = [
      await a.sessions.login('alice', PASSWORD.alice, LOCAL),
      await a.sessions.login('alice', PASSWORD.alice, { address: '10.1.1.1' }),
    ];
    const desktop = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    const bob = await a.sessions.login('bob', PASSWORD.bob, LOCAL);
    for (const { token } of tokens) await a.sessions.authenticate(token);

    expect(await a.sessions.endSessionsOf(owner, ids.alice)).toBe(3);
    for (const { token } of tokens) {
      await expect(a.sessions.authenticate(token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
    }
    await expect(a.sessions.authenticateDesktop(desktop.token)).rejects.toMatchObject({
      detailCode: 'TOKEN_INVALID',
    });
    await expect(a.sessions.authenticate(bob.token)).resolves.toMatchObject({ username: 'bob' });
    expect(await a.users.endSessions(owner, ids.alice)).toBe(0);
    // The user may log in again at once.
    await expect(a.sessions.login('alice', PASSWORD.alice, LOCAL)).resolves.toMatchObject({
      username: 'alice',
    });
  });
});

describe('the session cache', () => {
  it('never accepts a session after the call that ended it returned, whatever was in flight', async () => {
    t = await twoInstances({ sharedConnection: true });
    const { a, owner, ids } = t;
    const enders: Array<[string, (token: string) => Promise<unknown>]> = [
      ['logout', async (token) => a.sessions.logout(await a.sessions.authenticate(token))],
      ['endSessionsOf', () => a.sessions.endSessionsOf(owner, ids.alice)],
      ['setDisabled', () => a.users.setDisabled(owner, ids.alice, true)],
    ];
    for (const [name, end] of enders) {
      for (let delay = 0; delay < 24; delay++) {
        await a.users.setDisabled(owner, ids.alice, false);
        const { token } = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
        // A read of the (uncached) token started `delay` microtasks after the ending call began:
        // it may find the row before the delete commits.
        const ending = end(token);
        for (let i = 0; i < delay; i++) await Promise.resolve();
        const read = a.sessions.authenticate(token).catch(() => 'refused');
        await ending;
        await read;
        await expect(a.sessions.authenticate(token), `${name}, delay ${delay}`).rejects.toMatchObject({
          detailCode: expect.stringMatching(/^(TOKEN_INVALID|USER_DISABLED)$/),
        });
      }
    }
  });
});
