import { createHash, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../users/password.js';
import { findUserByName, updatePasswordHash } from '../users/user.repository.js';
import { toUser, type User } from '../users/user.service.js';
import { LoginThrottle } from './login-throttle.js';
import { VerificationGate } from './verification-gate.js';
import {
  deleteExpiredSessions,
  deleteSession,
  findSession,
  insertSession,
  liveSessionAddresses,
} from './session.repository.js';

export const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_CACHED_SESSIONS = 50_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuthenticatedUser extends User {
  tokenHash: string;
  expiresAt: string;
  expiresAtMs: number;
}

/** Where a login comes from: the client's address and, from browsers, the page's Origin. */
export interface LoginClient {
  address: string;
  origin?: string;
}

/** Failed logins per user name, machine and Origin (the real user's own key stays usable). */
export const FAILURES_PER_USER = 10;
/** Failed logins per machine and Origin across user names (password spraying). */
export const FAILURES_PER_CLIENT = 50;

export interface LoginResult {
  token: string;
  username: string;
  role: string;
  expiresAt: string;
}

/** Tokens are stored as SHA-256 hashes only; a stolen database yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.toLowerCase()).digest('hex');
}

/**
 * All loopback forms are one machine; "another machine" (spec: a user logged in
 * elsewhere cannot log in) is any other client address.
 */
export function machineOf(remoteAddress: string): string {
  const address = remoteAddress.replace(/^::ffff:/, '');
  return address === '::1' || address.startsWith('127.') ? 'localhost' : address;
}

export class SessionService {
  /** Valid sessions by token hash: the token check costs no database round trip. */
  private readonly cache = new Map<string, AuthenticatedUser>();
  private readonly userThrottle = new LoginThrottle(FAILURES_PER_USER);
  private readonly clientThrottle = new LoginThrottle(FAILURES_PER_CLIENT);
  private readonly gate: VerificationGate;

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
    options: { maxVerifications?: number; maxWaiting?: number } = {},
  ) {
    const active = options.maxVerifications ?? Math.max(2, availableParallelism());
    this.gate = new VerificationGate(active, options.maxWaiting ?? 4 * active);
  }

  /**
   * Checks the credentials and opens a session. In order: the throttles (checked and recorded
   * in one synchronous step), a place among the bounded verifications, the password (a dummy
   * hash for unknown users, so that both answers take as long), then, in one transaction, the
   * "logged in on another machine" check and the new session.
   */
  async login(username: string, password: string, from: LoginClient | string): Promise<LoginResult> {
    const client = typeof from === 'string' ? { address: from } : from;
    const now = this.clock.now();
    const row = await this.verify(username, password, client, now.getTime());
    return this.openSession(row, machineOf(client.address), now);
  }

  /**
   * Checks the credentials without opening a session, under the same throttles (the
   * machine's owner starting `pim mcp`, whose process is the session); returns the user.
   */
  async checkCredentials(username: string, password: string, from: LoginClient): Promise<User> {
    return toUser(await this.verify(username, password, from, this.clock.now().getTime()));
  }

  private async verify(username: string, password: string, client: LoginClient, nowMs: number) {
    const machine = machineOf(client.address);
    // A web page elsewhere (CORS lets it post logins to a loopback server) has its own keys, so it
    // cannot lock the user out of their window and scripts, which send no foreign Origin.
    const clientKey = `${machine}|${client.origin ?? ''}`;
    const userKey = `${username.toLowerCase()}|${clientKey}`;
    const wait = Math.max(
      this.userThrottle.retryAfterSeconds(userKey, nowMs),
      this.clientThrottle.retryAfterSeconds(clientKey, nowMs),
    );
    if (wait > 0) {
      throw new TooManyRequestsError(`Too many failed logins; try again in ${wait} seconds`, wait);
    }
    this.userThrottle.reserve(userKey, nowMs);
    this.clientThrottle.reserve(clientKey, nowMs);
    const giveBack = () => {
      this.userThrottle.release(userKey, nowMs);
      this.clientThrottle.release(clientKey, nowMs);
    };
    let entered: Promise<void>;
    try {
      entered = this.gate.enter();
    } catch (busy) {
      giveBack();
      throw busy;
    }
    let row: Awaited<ReturnType<typeof findUserByName>>;
    let valid: boolean;
    try {
      await entered;
      row = await findUserByName(this.db, username);
      valid = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
      if (row && valid && needsRehash(row.password_hash)) {
        await updatePasswordHash(this.db, row.id, await hashPassword(password));
      }
    } catch (error) {
      giveBack();
      throw error;
    } finally {
      this.gate.release();
    }
    if (!row || !valid) throw new UnauthorizedError('Wrong username or password', 'INVALID_CREDENTIALS');
    this.userThrottle.reset(userKey);
    this.clientThrottle.release(clientKey, nowMs);
    return row;
  }

  /** The check for a live session elsewhere and the insert run in one transaction: of two logins racing, one wins. */
  private async openSession(row: { id: number; username: string; role: string }, machine: string, now: Date) {
    const nowIso = now.toISOString();
    const token = randomUUID();
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await deleteExpiredSessions(trx, nowIso);
      const elsewhere = (await liveSessionAddresses(trx, row.id, nowIso)).filter((m) => m !== machine);
      if (elsewhere.length > 0) {
        throw new UnauthorizedError(
          `User '${row.username}' is already logged in on another machine`,
          'LOGGED_IN_ELSEWHERE',
        );
      }
      await insertSession(trx, {
        token_hash: hashToken(token),
        user_id: row.id,
        issued_at: nowIso,
        expires_at: expiresAt,
        remote_address: machine,
      });
    });
    return { token, username: row.username, role: row.role, expiresAt };
  }

  /** Returns the user of a live token, or throws UnauthorizedError. */
  async authenticate(token: string | undefined): Promise<AuthenticatedUser> {
    if (token === undefined)
      throw new UnauthorizedError(
        'Missing bearer token: send Authorization: Bearer <token>',
        'TOKEN_MISSING',
      );
    if (!UUID.test(token)) throw new UnauthorizedError('Malformed bearer token', 'TOKEN_INVALID');
    const tokenHash = hashToken(token);
    const nowMs = this.clock.now().getTime();
    let user = this.cache.get(tokenHash);
    if (!user) {
      const row = await findSession(this.db, tokenHash);
      if (!row) throw new UnauthorizedError('Unknown or logged-out token', 'TOKEN_INVALID');
      const expiresAtMs = Date.parse(row.expires_at);
      user = { ...toUser({ id: row.user_id, ...row }), tokenHash, expiresAt: row.expires_at, expiresAtMs };
      if (expiresAtMs > nowMs) {
        if (this.cache.size >= MAX_CACHED_SESSIONS) this.cache.clear();
        this.cache.set(tokenHash, user);
      }
    }
    // Checked on every request, cached or not: an expired token is never accepted.
    if (user.expiresAtMs <= nowMs) {
      this.cache.delete(tokenHash);
      throw new UnauthorizedError('Token expired: log in again', 'TOKEN_EXPIRED');
    }
    return user;
  }

  async logout(user: AuthenticatedUser): Promise<void> {
    // Cache first: from this moment on the token is dead, even before the delete commits.
    this.cache.delete(user.tokenHash);
    await deleteSession(this.db, user.tokenHash);
  }

  /** Forget cached sessions, e.g. after another process changed the system database. */
  clearCache(): void {
    this.cache.clear();
  }
}
