import { fileURLToPath } from 'node:url';
import type { FastifyServerOptions } from 'fastify';
import type { WindowDeps } from '../window/window-deps.js';
import { ListeningServer } from './listening-server.js';

/** The built window, dist/ui: two levels up from dist/app/ and from src/app/ (tests run the sources). */
export const UI_DIR = fileURLToPath(new URL('../../dist/ui', import.meta.url));

/** The window's server: always on (unless --no-ui), following ui.host and ui.port like REST follows rest.*. */
export class WindowServer extends ListeningServer {
  constructor(deps: WindowDeps, logger: FastifyServerOptions['logger'], loopbackOnly: () => boolean) {
    super(async () => {
      const { buildWindowApp } = await import('../window/window-app.js');
      return buildWindowApp(deps, { logger, loopbackOnly });
    });
  }
}
