import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { dummyPasswordHash, verifyPassword } from '../users/password.js';
import { findUserByName } from '../users/user.repository.js';
import { toUser, type User } from '../users/user.service.js';
import { LoginThrottle } from './login-throttle.js';
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
  private readonly throttle = new LoginThrottle();

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
  ) {}

  async login(username: string, password: string, remoteAddress: string): Promise<LoginResult> {
    const now = this.clock.now();
    const machine = machineOf(remoteAddress);
    const throttleKey = `${username.toLowerCase()}|${machine}`;
    const wait = this.throttle.retryAfterSeconds(throttleKey, now.getTime());
    if (wait > 0) {
      throw new TooManyRequestsError(`Too many failed logins; try again in ${wait} seconds`, wait);
    }
    const row = await findUserByName(this.db, username);
    const valid = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
    if (!row || !valid) {
      this.throttle.recordFailure(throttleKey, now.getTime());
      throw new UnauthorizedError('Wrong username or password', 'INVALID_CREDENTIALS');
    }
    this.throttle.reset(throttleKey);
    const nowIso = now.toISOString();
    await deleteExpiredSessions(this.db, nowIso);
    const elsewhere = (await liveSessionAddresses(this.db, row.id, nowIso)).filter((m) => m !== machine);
    if (elsewhere.length > 0) {
      throw new UnauthorizedError(
        `User '${row.username}' is already logged in on another machine`,
        'LOGGED_IN_ELSEWHERE',
      );
    }
    const token = randomUUID();
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString();
    await insertSession(this.db, {
      token_hash: hashToken(token),
      user_id: row.id,
      issued_at: nowIso,
      expires_at: expiresAt,
      remote_address: machine,
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
