import type { Clock } from '../clock.js';
import type { AuthenticatedUser } from './authenticated-user.js';

/** Why a desktop session ended. */
export type DesktopEndReason =
  /** The window's own logout (logoutDesktop). */
  | 'logout'
  /** Another login in the window of this instance (the same user's or another's). */
  | 'replaced'
  /** The desktop user logged out a REST token (spec, Authentication 6). */
  | 'rest-logout'
  /** An administrator ended the user's sessions (or another process removed the session). */
  | 'sessions-ended'
  /** An administrator disabled the user. */
  | 'disabled'
  /** 24 hours after the login. */
  | 'expired';

export interface DesktopSessionEnded {
  username: string;
  reason: DesktopEndReason;
}

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The one desktop session of this instance, as a desktop has one logged-in user: who holds it,
 * and who wants to know the moment it ends (the window's server pushes it to the browser).
 * Listeners are called synchronously, before the call that ended the session returns; a timer
 * ends it at its expiry even when nobody asks (checked against the clock, so a test clock
 * that was moved forward expires it at the next question).
 */
export class DesktopSlot {
  private holder: AuthenticatedUser | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(event: DesktopSessionEnded) => void>();

  constructor(private readonly clock: Clock) {}

  /** The holder, unless expired (then it ends now, reason 'expired'). */
  get user(): AuthenticatedUser | undefined {
    const holder = this.holder;
    if (holder && holder.expiresAtMs <= this.clock.now().getTime()) {
      this.end('expired');
      return undefined;
    }
    return holder;
  }

  /** The holder, expired or not. */
  peek(): AuthenticatedUser | undefined {
    return this.holder;
  }

  /** Whether `tokenHash` is the live desktop session. */
  holds(tokenHash: string): boolean {
    return this.user?.tokenHash === tokenHash;
  }

  /** A new desktop session; the one held before, if any, ends with `reason`. */
  take(user: AuthenticatedUser, reason: DesktopEndReason = 'replaced'): void {
    const previous = this.user;
    this.holder = user;
    this.schedule();
    if (previous) this.emit({ username: previous.username, reason });
  }

  /** New facts about the same session (a changed role); no event. */
  refresh(user: AuthenticatedUser): void {
    if (this.holder?.tokenHash === user.tokenHash) this.holder = user;
  }

  /** Ends the session held now (only if it is this token's, when one is given); returns it. */
  end(reason: DesktopEndReason, tokenHash?: string): AuthenticatedUser | undefined {
    const holder = this.holder;
    if (!holder || (tokenHash !== undefined && holder.tokenHash !== tokenHash)) return undefined;
    this.holder = undefined;
    this.unschedule();
    this.emit({ username: holder.username, reason });
    return holder;
  }

  onEnded(listener: (event: DesktopSessionEnded) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(event: DesktopSessionEnded): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One failing listener must not keep the others (or the ending call) from going on.
        console.error('pim: a listener of the desktop session failed:', error);
      }
    }
  }

  private schedule(): void {
    this.unschedule();
    const holder = this.holder;
    if (!holder) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, holder.expiresAtMs - this.clock.now().getTime()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Ends it if expired by the clock; else (a long session, a test clock) waits again.
      if (this.user?.tokenHash === holder.tokenHash) this.schedule();
    }, delay);
    this.timer.unref();
  }

  private unschedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
