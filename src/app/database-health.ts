import { sql } from 'kysely';
import { redactDatabaseUrl, type StorageChoice } from '../db/database-config.js';
import { openPostgres, type PostgresHandle } from '../db/postgres.js';
import { SHARED_SCHEMA } from '../db/system.schema.js';
import type { DatabaseState } from '../window/window-api.types.js';

/** host:port/database, short enough for a status bar (no user, never a password). */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host || parsed.searchParams.get('host') || 'localhost'}${parsed.pathname}`;
  } catch {
    return redactDatabaseUrl(url);
  }
}

/**
 * Whether the shared database answers, for the window's status bar (team mode). A probe every
 * second, one at a time; on SQLite the database is a file of this instance and always there.
 * Requests do not wait for it: each one that needs the database answers 503 by itself.
 *
 * The probe has a connection of its own with a short query timeout: on the requests' pool it
 * would queue behind their statements, and a stalled server (frozen, or a network cut without a
 * reset) would show as reachable until the requests' 15 s query timeout. `SELECT 1` answers in
 * milliseconds on any server that works, also a busy one; one not answered within
 * `stalledAfterMs` counts as unreachable.
 */
export class DatabaseHealth {
  private reachable = true;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private handle: PostgresHandle<unknown> | undefined;

  constructor(
    private readonly choice: StorageChoice,
    private readonly intervalMs = 1000,
    private readonly stalledAfterMs = 3000,
  ) {}

  start(): void {
    if (this.choice.kind !== 'postgres' || this.timer) return;
    this.handle = openPostgres<unknown>(this.choice.url, SHARED_SCHEMA, {
      max: 1,
      queryTimeoutMs: this.stalledAfterMs,
      applicationName: 'pim health',
    });
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.handle?.close();
    this.handle = undefined;
  }

  state(): DatabaseState {
    if (this.choice.kind === 'sqlite') return { kind: 'sqlite', reachable: true };
    return { kind: 'postgres', reachable: this.reachable, target: databaseLabel(this.choice.url) };
  }

  private async probe(): Promise<void> {
    const handle = this.handle;
    if (this.probing || !handle) return;
    this.probing = true;
    // A connection not established yet waits the connect timeout (5 s): counted from here.
    const stalled = setTimeout(() => (this.reachable = false), this.stalledAfterMs);
    stalled.unref();
    try {
      await sql`SELECT 1`.execute(handle.db);
      this.reachable = true;
    } catch {
      this.reachable = false;
    } finally {
      clearTimeout(stalled);
      this.probing = false;
    }
  }
}
