import type { AddressInfo } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import type { HttpLimits, PimApp } from '../http/app.js';
import type { HttpDeps } from '../http/http-deps.js';

export interface RestEndpoint {
  host: string;
  port: number;
}

/** The REST server's lifecycle: started, stopped and moved as the settings say. */
export class RestServer {
  private app: PimApp | undefined;
  private endpoint: RestEndpoint | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: HttpDeps,
    private readonly logger: FastifyServerOptions['logger'],
    private readonly limits: Partial<HttpLimits> = {},
  ) {}

  /** Where the server listens now (the real port when 0 was asked for), if it runs. */
  address(): RestEndpoint | undefined {
    return this.endpoint;
  }

  /** Brings the server to the wanted state: stopped (undefined) or listening on host:port. Serialised. */
  reconcile(wanted: RestEndpoint | undefined): Promise<void> {
    const next = this.queue.then(() => this.apply(wanted));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private wantedMatches(wanted: RestEndpoint | undefined): boolean {
    if (!wanted || !this.endpoint || !this.app) return !wanted && !this.app;
    return wanted.host === this.requested?.host && wanted.port === this.requested.port;
  }

  private requested: RestEndpoint | undefined;

  private async apply(wanted: RestEndpoint | undefined): Promise<void> {
    if (this.wantedMatches(wanted)) return;
    await this.stopNow();
    if (!wanted) return;
    // Imported on first use: CLI commands that never serve HTTP do not load Fastify.
    const { buildHttpApp } = await import('../http/app.js');
    const app = await buildHttpApp(this.deps, { logger: this.logger, limits: this.limits });
    try {
      await app.listen({ host: wanted.host, port: wanted.port });
    } catch (error) {
      await app.close();
      throw error;
    }
    const address = app.server.address() as AddressInfo;
    this.app = app;
    this.requested = wanted;
    this.endpoint = { host: wanted.host, port: address.port };
  }

  private async stopNow(): Promise<void> {
    const app = this.app;
    this.app = undefined;
    this.endpoint = undefined;
    this.requested = undefined;
    // Fastify's close lets in-flight requests finish before it resolves.
    if (app) await app.close();
  }

  stop(): Promise<void> {
    return this.reconcile(undefined);
  }
}
