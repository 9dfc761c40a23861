import { sql, type Kysely } from 'kysely';
import { redactDatabaseUrl, type StorageChoice } from '../db/database-config.js';

/** host:port/database, short enough for a status bar (no user, never a password). */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host || parsed.searchParams.get('host') || 'localhost'}${parsed.pathname}`;
  } catch {
    return redactDatabaseUrl(url);
  }
}
import type { DatabaseState } from '../window/window-api.types.js';

/**
 * Whether the shared database answers, for the window's status bar (team mode). A probe every
 * second, one at a time; on SQLite the database is a file of this instance and always there.
 * Requests do not wait for it: each one that needs the database answers 503 by itself.
 */
export class DatabaseHealth {
  private reachable = true;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly choice: StorageChoice,
    private readonly db: Kysely<unknown>,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    if (this.choice.kind !== 'postgres' || this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  state(): DatabaseState {
    if (this.choice.kind === 'sqlite') return { kind: 'sqlite', reachable: true };
    return { kind: 'postgres', reachable: this.reachable, target: databaseLabel(this.choice.url) };
  }

  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await sql`SELECT 1`.execute(this.db);
      this.reachable = true;
    } catch {
      this.reachable = false;
    } finally {
      this.probing = false;
    }
  }
}
