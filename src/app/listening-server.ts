import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Endpoint {
  host: string;
  port: number;
}

/**
 * A server that follows the settings while the application runs: started, stopped and moved
 * at once (the REST server, the window's server). Changes are serialised; `build` makes a
 * fresh Fastify app for each start.
 */
export class ListeningServer<App extends FastifyInstance = FastifyInstance> {
  private app: App | undefined;
  private endpoint: Endpoint | undefined;
  private requested: Endpoint | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly build: () => Promise<App>) {}

  /** Where the server listens now (the real port when 0 was asked for), if it runs. */
  address(): Endpoint | undefined {
    return this.endpoint;
  }

  /** Brings the server to the wanted state: stopped (undefined) or listening on host:port. Serialised. */
  reconcile(wanted: Endpoint | undefined): Promise<void> {
    const next = this.queue.then(() => this.apply(wanted));
    this.queue = next.catch(() => undefined);
    return next;
  }

  stop(): Promise<void> {
    return this.reconcile(undefined);
  }

  private wantedMatches(wanted: Endpoint | undefined): boolean {
    if (!wanted || !this.endpoint || !this.app) return !wanted && !this.app;
    return wanted.host === this.requested?.host && wanted.port === this.requested.port;
  }

  /**
   * Moves make before break: the new endpoint is bound while the old one still serves, so a port
   * that cannot be bound (in use, not this machine's) leaves the server where it was, serving,
   * and the error is thrown. Only when the new endpoint collides with the old one itself (the
   * same port on an overlapping address) is the old one closed first, and put back if the new
   * one still fails.
   */
  private async apply(wanted: Endpoint | undefined): Promise<void> {
    if (this.wantedMatches(wanted)) return;
    if (!wanted) return this.stopNow();
    const previous = this.requested;
    // The port it really listens on: with port 0 asked for, `previous` says 0, not the port held.
    const held = this.endpoint;
    try {
      await this.listenOn(wanted);
    } catch (error) {
      const collides =
        previous !== undefined &&
        held?.port === wanted.port &&
        (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!collides) throw error;
      await this.stopNow();
      try {
        await this.listenOn(wanted);
      } catch (retryError) {
        // Back where it was: the same port (not another free one), still counted as asked then.
        await this.listenOn(held, previous).catch(() => undefined);
        throw retryError;
      }
    }
  }

  /**
   * Starts a fresh app on `endpoint`; once it listens, the previous one (if any) is closed.
   * `requested` is what the settings asked for (port 0: any), kept to recognise them next time.
   */
  private async listenOn(endpoint: Endpoint, requested: Endpoint = endpoint): Promise<void> {
    const app = await this.build();
    try {
      await app.listen({ host: endpoint.host, port: endpoint.port });
    } catch (error) {
      await app.close();
      throw error;
    }
    const address = app.server.address() as AddressInfo;
    const old = this.app;
    this.app = app;
    this.requested = requested;
    this.endpoint = { host: endpoint.host, port: address.port };
    // Fastify's close lets in-flight requests finish before it resolves.
    if (old) await old.close();
  }

  private async stopNow(): Promise<void> {
    const app = this.app;
    this.app = undefined;
    this.endpoint = undefined;
    this.requested = undefined;
    // Fastify's close lets in-flight requests finish before it resolves.
    if (app) await app.close();
  }
}

/** http://host:port, with brackets around an IPv6 address. */
export function endpointUrl(endpoint: Endpoint): string {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `http://${host}:${endpoint.port}`;
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'is in use by another program',
  EACCES: 'may not be used by pim (permission denied)',
  EADDRNOTAVAIL: 'cannot be bound: the address does not belong to this machine',
  ENOTFOUND: 'cannot be bound: the host name is unknown',
};

/** Why host:port could not be bound, as the end of a sentence ("is in use by another program"). */
export function listenProblem(code: string | undefined): string {
  return (code && LISTEN_PROBLEMS[code]) ?? `cannot be bound (${code ?? 'unknown error'})`;
}
