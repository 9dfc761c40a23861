import { isConnectionFailure } from '../../db/connection-errors.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { TokenHashMemo } from './token-hash-memo.js';

const MAX_CACHED_SESSIONS = 50_000;

/** A database read in flight; `stale` once a session it may return was ended or changed meanwhile. */
interface PendingLoad {
  tokenHash: string;
  stale: boolean;
}

/**
 * Live bearer-token sessions by token hash, so that the token check costs no database round trip.
 *
 * The rule: once a call that ends or changes sessions has returned, no cache answers with the old
 * state. Such a call forgets the entries before and after its database change (`forget`), and a
 * read that was in flight across it is marked stale and repeated, so that a row read just before
 * the delete committed is never cached (or answered) after the ending call returned.
 */
export class SessionCache {
  private readonly entries = new Map<string, AuthenticatedUser>();
  private readonly pending = new Set<PendingLoad>();
  /** False while changes made elsewhere may go unheard (team mode's notifications are down). */
  private trusted = true;
  /** Hashes of the tokens of cached sessions, forgotten whenever an entry is. */
  private readonly tokenHashes: TokenHashMemo;

  constructor(hashToken: (token: string) => string) {
    this.tokenHashes = new TokenHashMemo(hashToken);
  }

  /**
   * The cached session of a token while the cache is trusted, without asking the database; the
   * token's hash is computed once while its session stays cached.
   */
  peekToken(token: string): AuthenticatedUser | undefined {
    if (!this.trusted) return undefined;
    const tokenHash = this.tokenHashes.hashOf(token);
    const user = this.entries.get(tokenHash);
    if (user) this.tokenHashes.remember(token, tokenHash);
    return user;
  }

  /** The cached session of a token hash, else `load`'s answer (cached while unexpired at `nowMs`). */
  async lookup(
    tokenHash: string,
    nowMs: number,
    load: () => Promise<AuthenticatedUser>,
  ): Promise<AuthenticatedUser> {
    const cached = this.entries.get(tokenHash);
    if (cached && this.trusted) return cached;
    for (;;) {
      const read: PendingLoad = { tokenHash, stale: false };
      this.pending.add(read);
      let user: AuthenticatedUser;
      try {
        user = await load();
      } catch (error) {
        // Distrusted, a cached session still answers while the database cannot be reached: the
        // request then fails where it needs the database, with the outage's own answer.
        if (cached && isConnectionFailure(error) && this.entries.get(tokenHash) === cached) return cached;
        throw error;
      } finally {
        this.pending.delete(read);
      }
      if (read.stale) continue;
      if (user.expiresAtMs > nowMs) {
        if (this.entries.size >= MAX_CACHED_SESSIONS) this.forgetEntries();
        this.entries.set(tokenHash, user);
      }
      return user;
    }
  }

  /** Forgets one token's session. */
  forgetToken(tokenHash: string): void {
    this.entries.delete(tokenHash);
    this.tokenHashes.forgetAll();
    for (const read of this.pending) if (read.tokenHash === tokenHash) read.stale = true;
  }

  /** Forgets every session of a user (reads in flight do not know their user yet: all are repeated). */
  forgetUser(userId: number): void {
    for (const [tokenHash, user] of this.entries) if (user.id === userId) this.entries.delete(tokenHash);
    this.tokenHashes.forgetAll();
    for (const read of this.pending) read.stale = true;
  }

  clear(): void {
    this.forgetAll();
    this.trusted = true;
  }

  /** Forgets every session, trusted or not (reads in flight are repeated). */
  forgetAll(): void {
    this.forgetEntries();
    for (const read of this.pending) read.stale = true;
  }

  private forgetEntries(): void {
    this.entries.clear();
    this.tokenHashes.forgetAll();
  }

  /** Until the next clear(), every lookup reads the database (changes may have been missed). */
  distrust(): void {
    this.trusted = false;
  }
}
