import { expect } from 'vitest';
import { ADMIN_PASSWORD, type TestServer } from './server.js';

/** A browser-like client of the window's server: keeps the session cookie, sends the window header. */
export class WindowClient {
  private cookie = '';

  constructor(private readonly server: TestServer) {}

  async request<T = unknown>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      /** A body sent as it is (a file to import), with the content-type of `headers`. */
      raw?: string | Uint8Array;
      headers?: Record<string, string>;
      windowHeader?: boolean;
    } = {},
  ): Promise<{
    status: number;
    body: { success: boolean; data?: T; error?: string; code?: string; field?: string };
    headers: Headers;
    /** The body as received (an export's XML), decoded as UTF-8 (a byte-order mark dropped). */
    text: string;
    /** The body's bytes. */
    bytes: Uint8Array;
  }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.windowHeader !== false) headers['x-pim-window'] = '1';
    if (this.cookie) headers.cookie = this.cookie;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.server.windowUrl}/ui/api${path}`, {
      method,
      headers,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const set = res.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';', 1)[0]!;
      this.cookie = pair.endsWith('=') ? '' : pair;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
    return {
      status: res.status,
      body: text && json ? JSON.parse(text) : {},
      headers: res.headers,
      text,
      bytes,
    };
  }

  async login(username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
    const res = await this.request('POST', '/session/login', { body: { username, password } });
    if (res.status !== 200) throw new Error(`window login failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** The job once it has ended (succeeded, failed or cancelled), as GET /ui/api/jobs/{id} answers it. */
  async endedJob<J extends { state: string }>(id: number, timeout = 30_000): Promise<J> {
    let job: J | undefined;
    await expect
      .poll(async () => (job = (await this.request<J>('GET', `/jobs/${id}`)).body.data)?.state, {
        timeout,
        interval: 20,
      })
      .toMatch(/^(succeeded|failed|cancelled)$/);
    return job!;
  }

  /** Opens a server-sent-events stream and collects its events. */
  events(path = '/events'): EventCollector {
    return new EventCollector(`${this.server.windowUrl}/ui/api${path}`, this.cookie);
  }
}

export interface ServerEvent {
  event: string;
  data: unknown;
}

export class EventCollector {
  readonly received: ServerEvent[] = [];
  private readonly controller = new AbortController();
  private ended = false;
  readonly done: Promise<void>;

  constructor(url: string, cookie: string) {
    this.done = (async () => {
      try {
        const res = await fetch(url, { headers: { cookie }, signal: this.controller.signal });
        if (!res.body) return;
        const decoder = new TextDecoder();
        let buffer = '';
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let split;
          while ((split = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, split);
            buffer = buffer.slice(split + 2);
            const event = /^event: (.*)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (event && data !== undefined) this.received.push({ event, data: JSON.parse(data) });
          }
        }
      } catch {
        // aborted
      } finally {
        this.ended = true;
      }
    })();
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Waits until an event matching `predicate` arrived (or fails after `timeoutMs`). */
  async waitFor(predicate: (event: ServerEvent) => boolean, timeoutMs = 5_000): Promise<ServerEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no such event within ${timeoutMs} ms: ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): void {
    this.controller.abort();
  }
}
