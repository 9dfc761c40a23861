import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UnauthorizedError } from '../../src/domain/errors.js';
import { TOKEN_LIFETIME_MS } from '../../src/domain/sessions/session.service.js';
import { LOCAL, PASSWORD, twoInstances, type Instance, type TwoInstances } from './sessions-fixture.js';

/** The desktop session: one per instance, like a desktop's logged-in user. */

let t: TwoInstances;
let a: Instance;
beforeEach(async () => {
  t = await twoInstances();
  a = t.a;
});
afterEach(async () => {
  await t.close();
});

const refused = { detailCode: expect.stringMatching(/^TOKEN_(INVALID|EXPIRED)$/) };

describe('loginDesktop and authenticateDesktop', () => {
  it('open the desktop session of this instance; its token is no bearer token, nor a bearer token a desktop session', async () => {
    const { token, user, replaced } = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    expect(user).toMatchObject({ username: 'alice', role: 'EDITOR', kind: 'desktop' });
    expect(replaced).toBeUndefined();
    expect(a.sessions.desktopUser()).toMatchObject({ username: 'alice' });
    await expect(a.sessions.authenticateDesktop(token)).resolves.toMatchObject({ username: 'alice' });

    await expect(a.sessions.authenticate(token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
    const rest = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    await expect(a.sessions.authenticateDesktop(rest.token)).rejects.toMatchObject(refused);
    await expect(a.sessions.authenticateDesktop(undefined)).rejects.toMatchObject({
      detailCode: 'TOKEN_MISSING',
    });
    await expect(a.sessions.authenticateDesktop('not-a-uuid')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('has the throttles and checks of login: wrong passwords 401 INVALID_CREDENTIALS, and they are counted', async () => {
    await expect(a.sessions.loginDesktop('alice', 'wrong', LOCAL)).rejects.toMatchObject({
      detailCode: 'INVALID_CREDENTIALS',
    });
    for (let i = 0; i < 9; i++)
      await a.sessions.loginDesktop('alice', `wrong-${i}`, LOCAL).catch(() => undefined);
    await expect(a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL)).rejects.toMatchObject({
      detailCode: 'TOO_MANY_FAILED_LOGINS',
    });
    expect(a.sessions.desktopUser()).toBeUndefined();
  });

  it("another user's login replaces the desktop session: 'replaced' is reported at once and the old cookie is refused", async () => {
    const alice = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    const bob = await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    expect(bob.replaced).toBe('alice');
    expect(a.ended).toEqual([{ username: 'alice', reason: 'replaced' }]);
    expect(a.sessions.desktopUser()).toMatchObject({ username: 'bob' });
    await expect(a.sessions.authenticateDesktop(alice.token)).rejects.toMatchObject(refused);
    await expect(a.sessions.authenticateDesktop(bob.token)).resolves.toMatchObject({ username: 'bob' });

    // The same user again: the older desktop session of bob ends as well.
    const again = await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    expect(again.replaced).toBe('bob');
    expect(a.ended.at(-1)).toEqual({ username: 'bob', reason: 'replaced' });
    await expect(a.sessions.authenticateDesktop(bob.token)).rejects.toMatchObject(refused);
    // Alice, replaced in the window, may log in on the other instance: her desktop session is over.
    await expect(t.b.sessions.login('alice', PASSWORD.alice, LOCAL)).resolves.toMatchObject({
      username: 'alice',
    });
  });

  it('is told synchronously: the event has fired when the ending call returns; a failing listener stops nobody', async () => {
    const seen: string[] = [];
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const unsubscribeBroken = a.sessions.onDesktopSessionEnded(() => {
      throw new Error('a broken listener');
    });
    const unsubscribe = a.sessions.onDesktopSessionEnded((event) => seen.push(event.reason));
    const { token } = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.sessions.logoutDesktop(token);
    expect(seen).toEqual(['logout']);
    expect(a.ended).toEqual([{ username: 'alice', reason: 'logout' }]);
    expect(logged).toHaveBeenCalledWith('pim: a listener of the desktop session failed:', expect.any(Error));
    logged.mockRestore();
    unsubscribe();
    unsubscribeBroken();
    const next = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.sessions.logoutDesktop(next.token);
    expect(seen).toEqual(['logout']);
  });
});

describe('ending the desktop session', () => {
  it("a REST logout of the desktop user ends it ('rest-logout'); another user's REST logout does not", async () => {
    const desktop = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    const bobToken = await a.sessions.login('bob', PASSWORD.bob, LOCAL);
    await a.sessions.logout(await a.sessions.authenticate(bobToken.token));
    expect(a.sessions.desktopUser()).toMatchObject({ username: 'alice' });
    expect(a.ended).toEqual([]);

    const rest = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    const other = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    await a.sessions.logout(await a.sessions.authenticate(rest.token));
    expect(a.ended).toEqual([{ username: 'alice', reason: 'rest-logout' }]);
    expect(a.sessions.desktopUser()).toBeUndefined();
    await expect(a.sessions.authenticateDesktop(desktop.token)).rejects.toMatchObject(refused);
    await expect(a.sessions.authenticate(rest.token)).rejects.toMatchObject({ detailCode: 'TOKEN_INVALID' });
    // Only the token logged out ends; her other token stays.
    await expect(a.sessions.authenticate(other.token)).resolves.toMatchObject({ username: 'alice' });
  });

  it("the window's logout ends the desktop session only: the user's REST tokens keep working", async () => {
    const rest = await a.sessions.login('alice', PASSWORD.alice, LOCAL);
    const desktop = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.sessions.logoutDesktop(desktop.token);
    expect(a.ended).toEqual([{ username: 'alice', reason: 'logout' }]);
    expect(a.sessions.desktopUser()).toBeUndefined();
    await expect(a.sessions.authenticateDesktop(desktop.token)).rejects.toMatchObject(refused);
    await expect(a.sessions.authenticate(rest.token)).resolves.toMatchObject({ username: 'alice' });

    // A stale cookie's logout (its session was replaced) ends nothing.
    const bob = await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    await a.sessions.logoutDesktop(desktop.token);
    await a.sessions.logoutDesktop(rest.token); // a bearer token is no desktop session
    await a.sessions.logoutDesktop(undefined);
    expect(a.ended).toHaveLength(1);
    await expect(a.sessions.authenticateDesktop(bob.token)).resolves.toMatchObject({ username: 'bob' });
    await expect(a.sessions.authenticate(rest.token)).resolves.toMatchObject({ username: 'alice' });
  });

  it("expires 24 hours after the login ('expired'), like a token", async () => {
    const { token } = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    t.clock.advance(TOKEN_LIFETIME_MS - 1);
    await expect(a.sessions.authenticateDesktop(token)).resolves.toMatchObject({ username: 'alice' });
    t.clock.advance(1);
    await expect(a.sessions.authenticateDesktop(token)).rejects.toMatchObject({
      detailCode: 'TOKEN_EXPIRED',
    });
    expect(a.ended).toEqual([{ username: 'alice', reason: 'expired' }]);
    expect(a.sessions.desktopUser()).toBeUndefined();
  });

  it("desktopUser() alone notices the expiry (the window's status asks it)", async () => {
    await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    t.clock.advance(TOKEN_LIFETIME_MS);
    expect(a.sessions.desktopUser()).toBeUndefined();
    expect(a.ended).toEqual([{ username: 'alice', reason: 'expired' }]);
    // A new login is not 'replaced' by the expired one.
    expect((await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL)).replaced).toBeUndefined();
    expect(a.ended).toHaveLength(1);
  });

  it("an administrator's endSessionsOf and disabling end it ('sessions-ended', 'disabled')", async () => {
    await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.sessions.endSessionsOf(t.owner, t.ids.alice);
    expect(a.ended).toEqual([{ username: 'alice', reason: 'sessions-ended' }]);
    expect(a.sessions.desktopUser()).toBeUndefined();

    await a.sessions.loginDesktop('bob', PASSWORD.bob, LOCAL);
    await a.users.setDisabled(t.owner, t.ids.bob, true);
    expect(a.ended.at(-1)).toEqual({ username: 'bob', reason: 'disabled' });
    expect(a.sessions.desktopUser()).toBeUndefined();
  });

  it('a changed role reaches the desktop user at once, without ending the session', async () => {
    const { token } = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    await a.users.setRole(t.owner, t.ids.alice, 'VIEWER');
    expect(a.sessions.desktopUser()).toMatchObject({ username: 'alice', role: 'VIEWER', rights: ['Lesen'] });
    await expect(a.sessions.authenticateDesktop(token)).resolves.toMatchObject({ role: 'VIEWER' });
    expect(a.ended).toEqual([]);
  });
});

describe('restarts', () => {
  it('the desktop session survives a restart of the instance, as tokens do', async () => {
    const { token } = await a.sessions.loginDesktop('alice', PASSWORD.alice, LOCAL);
    const restarted = t.restartA();
    await expect(restarted.authenticateDesktop(token)).resolves.toMatchObject({ username: 'alice' });
    expect(restarted.desktopUser()).toMatchObject({ username: 'alice' });
    // and the restarted instance's next login reports whom it replaced
    expect((await restarted.loginDesktop('bob', PASSWORD.bob, LOCAL)).replaced).toBe('alice');
  });
});
