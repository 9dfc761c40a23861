import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import { ServiceBusyError, TooManyRequestsError, UnauthorizedError } from '../errors.js';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../users/password.js';
import { findUserByLoginName, updatePasswordHash, type UserRow } from '../users/user.repository.js';
import { LoginThrottle } from './login-throttle.js';
import { VerificationGate } from './verification-gate.js';

/** Where a login comes from: the client's address and, from browsers, the page's Origin. */
export interface LoginClient {
  address: string;
  origin?: string;
  /** The application window's own login (its server checked that Origin is the window's). */
  window?: boolean;
}

/**
 * The channel a login comes through, for the throttles' keys: scripts (no Origin), the window,
 * or any web page. Never the Origin's value itself, which a client chooses freely: a key per
 * value would give every invented Origin a fresh limit. All pages share one limit per address,
 * so a page elsewhere can exhaust only that one, never the user's window or scripts.
 */
function channelOf(client: LoginClient): string {
  if (client.window) return 'window';
  return client.origin === undefined ? 'script' : 'web';
}

/** Failed logins per user name, client address and channel (the real user's own key stays usable). */
export const FAILURES_PER_USER = 10;
/** Failed logins per client address and channel across user names (password spraying). */
export const FAILURES_PER_CLIENT = 50;

/**
 * The client's host for the login throttles and the session row: all loopback forms are one.
 * (Not the "machine" of "logged in on another machine": that is a pim instance, see SessionService.)
 */
export function machineOf(remoteAddress: string): string {
  const address = remoteAddress.replace(/^::ffff:/, '');
  return address === '::1' || address.startsWith('127.') ? 'localhost' : address;
}

/**
 * Attempts waiting for room under the throttles (parallel attempts beyond what may still fail),
 * at most: beyond, a login is refused at once as busy (503), as by the verification gate.
 */
export const MAX_WAITING_FOR_ROOM = 1_000;

/**
 * Checks credentials under the failed-login throttles and the bound on parallel verifications.
 * In order: the throttles (locked by failures only: 429; room for this attempt even if all
 * under way fail, else it waits until one of them ends), a place among the bounded
 * verifications, the password (a dummy hash for unknown users, so that both answers take as
 * long), and, only for the right password, whether the account is disabled.
 */
export class LoginGuard {
  private readonly userThrottle = new LoginThrottle(FAILURES_PER_USER);
  private readonly clientThrottle = new LoginThrottle(FAILURES_PER_CLIENT);
  private readonly gate: VerificationGate;
  private readonly waitingForRoom: Array<() => void> = [];

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    maxVerifications: number,
    maxWaiting: number,
  ) {
    this.gate = new VerificationGate(maxVerifications, maxWaiting);
  }

  async verify(username: string, password: string, client: LoginClient, nowMs: number): Promise<UserRow> {
    const clientKey = `${machineOf(client.address)}|${channelOf(client)}`;
    // One key for every form of a name that finds the same user (NFC, ASCII case).
    const userKey = `${username.normalize('NFC').toLowerCase()}|${clientKey}`;
    await this.admit(userKey, clientKey, nowMs);
    let entered: Promise<void>;
    try {
      entered = this.gate.enter();
    } catch (busy) {
      this.settle(userKey, clientKey);
      throw busy;
    }
    let row: UserRow | undefined;
    let valid: boolean;
    try {
      await entered;
      row = await findUserByLoginName(this.db, username);
      valid = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash()));
      if (row && valid && needsRehash(row.password_hash)) {
        await updatePasswordHash(this.db, row.id, await hashPassword(password));
      }
    } catch (error) {
      // Not a wrong password (the database failed): no failure recorded.
      this.settle(userKey, clientKey);
      throw error;
    } finally {
      this.gate.release();
    }
    if (!row || !valid) {
      this.settle(userKey, clientKey, nowMs);
      throw new UnauthorizedError('Wrong username or password', 'INVALID_CREDENTIALS');
    }
    // The right password forgives this user's failures from this client (not the client's others).
    this.userThrottle.reset(userKey);
    this.settle(userKey, clientKey);
    // Only after the right password: whether an account is disabled is no secret to its owner.
    if (row.disabled === 1) throw disabledError(row.username);
    return row;
  }

  /**
   * Starts an attempt under both throttles, checked and recorded in one synchronous step, so
   * that parallel attempts never pass the check together; waits while there is no room.
   */
  private async admit(userKey: string, clientKey: string, nowMs: number): Promise<void> {
    for (;;) {
      const wait = Math.max(
        this.userThrottle.retryAfterSeconds(userKey, nowMs),
        this.clientThrottle.retryAfterSeconds(clientKey, nowMs),
      );
      if (wait > 0) {
        throw new TooManyRequestsError(`Too many failed logins; try again in ${wait} seconds`, wait);
      }
      if (this.userThrottle.hasRoom(userKey, nowMs) && this.clientThrottle.hasRoom(clientKey, nowMs)) {
        this.userThrottle.start(userKey);
        this.clientThrottle.start(clientKey);
        return;
      }
      if (this.waitingForRoom.length >= MAX_WAITING_FOR_ROOM) {
        throw new ServiceBusyError('Too many logins at once; try again in a moment', 1, 'LOGIN_BUSY');
      }
      await new Promise<void>((resolve) => this.waitingForRoom.push(resolve));
    }
  }

  /** Ends an attempt (a failure when `failedAtMs` is given); waiting attempts check again, in order. */
  private settle(userKey: string, clientKey: string, failedAtMs?: number): void {
    this.userThrottle.finish(userKey, failedAtMs);
    this.clientThrottle.finish(clientKey, failedAtMs);
    for (const wake of this.waitingForRoom.splice(0)) wake();
  }
}

export function disabledError(username: string): UnauthorizedError {
  return new UnauthorizedError(`User '${username}' is disabled`, 'USER_DISABLED');
}
