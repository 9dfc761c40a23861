import { createHash, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Kysely } from 'kysely';
import type { SessionKind, SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { requireRight, type RequestContext } from '../context.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import { RIGHTS } from '../users/roles.js';
import { findUserById, markLogin, type UserRow } from '../users/user.repository.js';
import { toUser, type User, type UserSessions } from '../users/user.service.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { DesktopSlot, type DesktopEndReason, type DesktopSessionEnded } from './desktop-slot.js';
import { disabledError, LoginGuard, machineOf, type LoginClient } from './login-guard.js';
import { SessionCache } from './session-cache.js';
import {
  deleteDesktopSession,
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOf,
  findDesktopSession,
  findSession,
  hasLiveSessionElsewhere,
  insertSession,
  type SessionWithUser,
} from './session.repository.js';

/** Tokens and desktop sessions alike: 24 hours from the login, not sliding. */
export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LoginResult {
  token: string;
  username: string;
  role: string;
  expiresAt: string;
}

export interface DesktopLoginResult {
  token: string;
  user: AuthenticatedUser;
  /** Who held the desktop session this login ended (another user, or the same user's older one). */
  replaced?: string;
}

/** Tokens are stored as SHA-256 hashes only; a stolen database yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.toLowerCase()).digest('hex');
}

function toAuthenticated(
  row: { id: number; username: string; role: string; created_at: string },
  tokenHash: string,
  expiresAt: string,
  kind: SessionKind,
): AuthenticatedUser {
  return { ...toUser(row), tokenHash, expiresAt, expiresAtMs: Date.parse(expiresAt), kind };
}

function fromSession(row: SessionWithUser): AuthenticatedUser {
  return toAuthenticated({ ...row, id: row.user_id }, row.token_hash, row.expires_at, row.kind);
}

function desktopEnded(): UnauthorizedError {
  return new UnauthorizedError('The desktop session has ended: log in again', 'TOKEN_INVALID');
}

/**
 * Logins and sessions of one pim instance (`machineId`, one per data folder). Bearer tokens
 * (REST, MCP over HTTP) and the one desktop session (the window) are both session rows, stored
 * hashed, 24 hours from the login.
 *
 * "Another machine" is another instance on the same system database (team mode): a user with a
 * live session issued by another instance cannot log in, and a session is valid only on the
 * instance that issued it. Logins on this instance are allowed from any client address.
 *
 * Every change to the desktop session runs through one queue (`serially`), so that the slot in
 * memory and the row in the database move together; listeners hear of its end synchronously.
 */
export class SessionService implements UserSessions {
  readonly machineId: string;
  private readonly cache = new SessionCache(hashToken);
  private readonly guard: LoginGuard;
  private readonly desktop: DesktopSlot;
  private desktopQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
    options: { machineId: string; maxVerifications?: number; maxWaiting?: number },
  ) {
    this.machineId = options.machineId;
    const active = options.maxVerifications ?? Math.max(2, availableParallelism());
    this.guard = new LoginGuard(db, active, options.maxWaiting ?? 4 * active);
    this.desktop = new DesktopSlot(clock);
    // The desktop session survives a restart, as tokens do: find it before any desktop call.
    this.serially(() => this.loadDesktop()).catch(() => undefined);
  }

  /** Checks the credentials and opens a bearer-token session on this instance. */
  async login(username: string, password: string, from: LoginClient | string): Promise<LoginResult> {
    const client = typeof from === 'string' ? { address: from } : from;
    const row = await this.guard.verify(username, password, client, this.clock.now().getTime());
    const { token, expiresAt } = await this.openSession(row, client, 'token');
    return { token, username: row.username, role: row.role, expiresAt };
  }

  /**
   * Checks the credentials without opening a session, under the same throttles (the
   * machine's owner starting `pim mcp`, whose process is the session); returns the user. It is
   * a login all the same: the user's last login is recorded, as for a token or the window, so
   * that an agent's user does not look unused in the Users view and `pim user list`.
   */
  async checkCredentials(username: string, password: string, from: LoginClient): Promise<User> {
    const row = await this.guard.verify(username, password, from, this.clock.now().getTime());
    // Refuses a user disabled since the password check, as openSession does.
    const marked = await markLogin(this.db, row.id, this.clock.now().toISOString());
    if (!marked) throw disabledError(row.username);
    return toUser(row);
  }

  /**
   * Opens the desktop session of this instance (the window's login), under the same checks as
   * `login`. One desktop user at a time, as on a desktop: the session held before, whoever held
   * it, ends ('replaced'). The user's bearer tokens are not touched.
   */
  async loginDesktop(username: string, password: string, client: LoginClient): Promise<DesktopLoginResult> {
    const row = await this.guard.verify(username, password, client, this.clock.now().getTime());
    return this.serially(async () => {
      const { token, tokenHash, expiresAt, replaced } = await this.openSession(row, client, 'desktop');
      const user = toAuthenticated(row, tokenHash, expiresAt, 'desktop');
      this.desktop.take(user, 'replaced');
      return { token, user, ...(replaced !== undefined ? { replaced } : {}) };
    });
  }

  /**
   * One transaction: of two logins racing on two instances, exactly one wins. It starts with a
   * write on the user's row (last_login_at), which serialises the logins of one user (the write
   * lock on SQLite, a row lock on PostgreSQL) and refuses a user disabled since the password check.
   */
  private async openSession(row: UserRow, client: LoginClient, kind: SessionKind) {
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const token = randomUUID();
    const tokenHash = hashToken(token);
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString();
    const replaced = await this.db.transaction().execute(async (trx) => {
      if (!(await markLogin(trx, row.id, nowIso))) throw disabledError(row.username);
      await deleteExpiredSessions(trx, nowIso);
      if (await hasLiveSessionElsewhere(trx, row.id, this.machineId, nowIso)) {
        throw new UnauthorizedError(
          `User '${row.username}' is already logged in on another machine`,
          'LOGGED_IN_ELSEWHERE',
        );
      }
      let previous: SessionWithUser | undefined;
      if (kind === 'desktop') {
        previous = await findDesktopSession(trx, this.machineId);
        await deleteDesktopSession(trx, this.machineId);
      }
      await insertSession(trx, {
        token_hash: tokenHash,
        user_id: row.id,
        issued_at: nowIso,
        expires_at: expiresAt,
        remote_address: machineOf(client.address),
        machine_id: this.machineId,
        kind,
      });
      return previous?.username;
    });
    return { token, tokenHash, expiresAt, replaced };
  }

  /**
   * The user of a live bearer token when the cache already knows it, without a promise: the
   * token check of nearly every request. Undefined means "ask authenticate", which also gives
   * every refusal its reason.
   */
  cachedUser(token: string | undefined): AuthenticatedUser | undefined {
    if (token === undefined || !UUID.test(token)) return undefined;
    const user = this.cache.peekToken(token);
    return user && user.expiresAtMs > this.clock.now().getTime() ? user : undefined;
  }

  /** Returns the user of a live bearer token issued by this instance, or throws 401. */
  async authenticate(token: string | undefined): Promise<AuthenticatedUser> {
    if (token === undefined) {
      throw new UnauthorizedError(
        'Missing bearer token: send Authorization: Bearer <token>',
        'TOKEN_MISSING',
      );
    }
    if (!UUID.test(token)) throw new UnauthorizedError('Malformed bearer token', 'TOKEN_INVALID');
    const tokenHash = hashToken(token);
    const nowMs = this.clock.now().getTime();
    const user = await this.cache.lookup(tokenHash, nowMs, () => this.loadToken(tokenHash));
    // Checked on every request, cached or not: an expired token is never accepted.
    if (user.expiresAtMs <= nowMs) {
      this.cache.forgetToken(tokenHash);
      throw new UnauthorizedError('Token expired: log in again', 'TOKEN_EXPIRED');
    }
    return user;
  }

  private async loadToken(tokenHash: string): Promise<AuthenticatedUser> {
    const row = await findSession(this.db, tokenHash);
    // A desktop session's token is the window's cookie, never a bearer token.
    if (!row || row.kind !== 'token')
      throw new UnauthorizedError('Unknown or logged-out token', 'TOKEN_INVALID');
    if (row.machine_id !== null && row.machine_id !== this.machineId) {
      throw new UnauthorizedError(
        'This token was issued by another pim instance; log in to this one',
        'TOKEN_INVALID',
      );
    }
    if (row.disabled === 1) throw disabledError(row.username);
    return fromSession(row);
  }

  /**
   * Returns the user of this instance's live desktop session (the window's cookie), or throws
   * 401. Checked against the database each time, so that a change by another process (the CLI
   * ending the user's sessions) ends the window's session at its next request.
   */
  async authenticateDesktop(token: string | undefined): Promise<AuthenticatedUser> {
    if (token === undefined) throw new UnauthorizedError('Log in to the window first', 'TOKEN_MISSING');
    if (!UUID.test(token)) throw desktopEnded();
    const tokenHash = hashToken(token);
    return this.serially(async () => {
      if (this.desktop.peek()?.tokenHash !== tokenHash) throw desktopEnded();
      if (!this.desktop.user) {
        throw new UnauthorizedError('The desktop session expired: log in again', 'TOKEN_EXPIRED');
      }
      const user = await this.recheckDesktop();
      if (!user) throw desktopEnded();
      return user;
    });
  }

  /** The user of this instance's desktop session, if one is open (the window's status bar). */
  desktopUser(): AuthenticatedUser | undefined {
    return this.desktop.user;
  }

  /** Calls `listener` synchronously whenever the desktop session ends; returns the unsubscribe. */
  onDesktopSessionEnded(listener: (event: DesktopSessionEnded) => void): () => void {
    return this.desktop.onEnded(listener);
  }

  /** Ends a bearer token for good; the active desktop user's REST logout ends the desktop session too. */
  async logout(user: AuthenticatedUser): Promise<void> {
    if (user.kind === 'desktop') return this.endDesktopSession(user.tokenHash);
    this.cache.forgetToken(user.tokenHash);
    await deleteSession(this.db, user.tokenHash, 'token');
    this.cache.forgetToken(user.tokenHash);
    await this.endDesktopOf(user.id, 'rest-logout');
  }

  /** Ends the desktop session only (the window's logout): the user's bearer tokens stay valid. */
  async logoutDesktop(token: string | undefined): Promise<void> {
    if (token !== undefined) await this.endDesktopSession(hashToken(token));
  }

  private async endDesktopSession(tokenHash: string): Promise<void> {
    await this.serially(async () => {
      this.desktop.end('logout', tokenHash);
      await deleteSession(this.db, tokenHash, 'desktop');
    });
  }

  /** Ends every session of a user on every instance, tokens and desktop alike; returns how many. */
  async endSessionsOf(ctx: RequestContext, userId: number): Promise<number> {
    requireRight(ctx, RIGHTS.users);
    if (!(await findUserById(this.db, userId))) {
      throw new NotFoundError(`User ${userId} not found`, 'USER_NOT_FOUND');
    }
    return this.changeUser(
      userId,
      () => this.db.transaction().execute((trx) => deleteSessionsOf(trx, userId)),
      'sessions-ended',
    );
  }

  /**
   * For user administration: runs `change` (it changes the user's row or ends their sessions in
   * the database) so that no cached session of the user outlives it. With `ended`, the user's
   * desktop session ends with that reason; else it sees the user's new role.
   */
  async changeUser<T>(
    userId: number,
    change: () => Promise<T>,
    ended?: 'disabled' | 'sessions-ended',
  ): Promise<T> {
    this.cache.forgetUser(userId);
    return this.serially(async () => {
      let result: T;
      try {
        result = await change();
      } finally {
        this.cache.forgetUser(userId);
      }
      const holder = this.desktop.user;
      if (holder?.id === userId) {
        if (ended) this.desktop.end(ended, holder.tokenHash);
        else await this.recheckDesktop();
      }
      return result;
    });
  }

  /**
   * Forgets the cached sessions of one user (or of all with undefined) after another instance
   * changed them (team mode's notifications), and rechecks the desktop session if it is theirs.
   */
  forgetUser(userId: number | undefined): void {
    if (userId === undefined) return this.clearCache();
    this.cache.forgetUser(userId);
    if (this.desktop.user?.id === userId) this.recheckDesktopSoon();
  }

  /**
   * Team mode, while this instance cannot hear other instances (the notification connection is
   * down): every token is read from the database again; a cached one answers only while the
   * database cannot be reached at all, and then every request that needs the database fails
   * anyway (503). trustCacheAgain ends it.
   */
  distrustCache(): void {
    this.cache.distrust();
  }

  /**
   * Forgets the cached bearer sessions, leaving the cache's trust as it is: the data folder's
   * database changed (another process may have ended sessions or disabled a user), and the next
   * request must see it.
   */
  forgetCachedSessions(): void {
    this.cache.forgetAll();
  }

  /**
   * Forgets cached sessions, e.g. after another process changed the system database. The cache's
   * trust stays as it is: while team mode's notifications are down, a local change says nothing
   * about what other instances did meanwhile.
   */
  clearCache(): void {
    this.cache.forgetAll();
    this.recheckDesktopSoon();
  }

  /** Team mode: the notifications are heard again; the cache starts empty, and trusted. */
  trustCacheAgain(): void {
    this.cache.clear();
    this.recheckDesktopSoon();
  }

  /** Rechecks the desktop session in turn with the other session changes; its failure is the next check's. */
  private recheckDesktopSoon(): void {
    this.serially(() => this.recheckDesktop()).catch(() => undefined);
  }

  private async endDesktopOf(userId: number, reason: DesktopEndReason): Promise<void> {
    if (this.desktop.user?.id !== userId) return;
    await this.serially(async () => {
      const holder = this.desktop.user;
      if (holder?.id !== userId) return;
      this.desktop.end(reason, holder.tokenHash);
      await deleteSession(this.db, holder.tokenHash, 'desktop');
    });
  }

  /** Reads the held desktop session's row: refreshes the user, or ends the session saying why. */
  private async recheckDesktop(): Promise<AuthenticatedUser | undefined> {
    const holder = this.desktop.user;
    if (!holder) return undefined;
    const row = await findSession(this.db, holder.tokenHash);
    const live =
      row?.kind === 'desktop' &&
      row.machine_id === this.machineId &&
      row.disabled === 0 &&
      Date.parse(row.expires_at) > this.clock.now().getTime();
    if (live) {
      const user = fromSession(row);
      this.desktop.refresh(user);
      return user;
    }
    this.desktop.end(await this.whyDesktopEnded(holder, row), holder.tokenHash);
    return undefined;
  }

  /**
   * Why the held desktop session is no longer live. A session removed by another process or
   * instance (`pim user disable`, an administrator elsewhere) leaves no row to say why: the
   * user's row tells a disabled user from ended sessions.
   */
  private async whyDesktopEnded(
    holder: AuthenticatedUser,
    row: { disabled: number } | undefined,
  ): Promise<DesktopEndReason> {
    if (row) return row.disabled === 1 ? 'disabled' : 'expired';
    if (await findDesktopSession(this.db, this.machineId)) return 'replaced';
    return (await findUserById(this.db, holder.id))?.disabled === 1 ? 'disabled' : 'sessions-ended';
  }

  private async loadDesktop(): Promise<void> {
    const row = await findDesktopSession(this.db, this.machineId);
    if (!row || row.disabled === 1 || Date.parse(row.expires_at) <= this.clock.now().getTime()) return;
    if (!this.desktop.peek()) this.desktop.take(fromSession(row));
  }

  /** Runs desktop-session work one call at a time, in the order of the calls. */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.desktopQueue.then(work, work);
    this.desktopQueue = run.catch(() => undefined);
    return run;
  }
}
