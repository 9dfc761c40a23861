import type { FastifyServerOptions } from 'fastify';
import type { HttpLimits } from '../http/app.js';
import type { PimApp } from '../http/pim-app.js';
import type { HttpDeps } from '../http/http-deps.js';
import { ListeningServer, type Endpoint } from './listening-server.js';

export type RestEndpoint = Endpoint;

/** The REST server's lifecycle: started, stopped and moved as the settings say. */
export class RestServer extends ListeningServer<PimApp> {
  constructor(deps: HttpDeps, logger: FastifyServerOptions['logger'], limits: Partial<HttpLimits> = {}) {
    super(async () => {
      // Imported on first use: CLI commands that never serve HTTP do not load Fastify.
      const { buildHttpApp } = await import('../http/app.js');
      return buildHttpApp(deps, { logger, limits });
    });
  }
}
