import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { pgConnectionString } from '../db/postgres-url.js';

/** The channel the shared schema's triggers notify when sessions end or users change (team mode). */
export const SESSIONS_CHANNEL = 'pim_sessions';

/**
 * Listens on the shared PostgreSQL database for changes made by other instances (LISTEN/NOTIFY):
 * a session ended, a user disabled or demoted. Each notification carries the user's id. While the
 * connection is down, notifications are lost: `onDisconnected` runs when it breaks (callers stop
 * trusting their caches) and `onReconnected` when it is back (callers drop and trust them again),
 * so nothing cached outlives a change it could have missed.
 *
 * A link can also die silently (a NAT or firewall forgetting an idle connection, a cable pulled
 * without a reset): then neither `error` nor `end` comes, TCP keepalive notices only after hours,
 * and notifications stop unnoticed. So the listener asks the server every `heartbeatMs` and counts
 * the link lost when no answer comes within three times that (a busy event loop or a slow
 * server must not end a healthy link).
 */
export class SharedChangeListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private connecting = false;

  constructor(
    private readonly url: string,
    private readonly onUserChanged: (userId: number | undefined) => void,
    private readonly onDisconnected: () => void,
    private readonly onReconnected: () => void,
    private readonly retryMs = 1000,
    private readonly heartbeatMs = 1000,
  ) {}

  async start(): Promise<void> {
    await this.connect(false);
  }

  private async connect(reconnecting: boolean): Promise<void> {
    if (this.stopped || this.connecting) return;
    this.connecting = true;
    const client = new pg.Client({
      connectionString: pgConnectionString(this.url),
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      application_name: 'pim-listener',
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      const id = Number(message.payload);
      this.onUserChanged(Number.isSafeInteger(id) ? id : undefined);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSIONS_CHANNEL}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.beat(client);
      if (reconnecting) this.onReconnected();
    } catch {
      await client.end().catch(() => undefined);
      this.schedule();
    } finally {
      this.connecting = false;
    }
  }

  /** Asks the server every heartbeatMs while `client` is the listener; no answer in time: lost. */
  private beat(client: pg.Client): void {
    const timer = setTimeout(() => {
      if (this.client !== client) return;
      let deadline: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        deadline = setTimeout(() => reject(new Error('no answer')), 3 * this.heartbeatMs);
        deadline.unref();
      });
      Promise.race([client.query('SELECT 1'), silent]).then(
        () => {
          clearTimeout(deadline);
          this.beat(client);
        },
        () => {
          clearTimeout(deadline);
          this.lost(client);
          // Its socket may never close by itself: it is dropped, not waited for.
          void client.end().catch(() => undefined);
        },
      );
    }, this.heartbeatMs);
    timer.unref();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.onDisconnected();
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect(true);
    }, this.retryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    // A link that died silently may never confirm the end: the wait is bounded.
    if (client)
      await Promise.race([client.end().catch(() => undefined), delay(1000, undefined, { ref: false })]);
  }
}
