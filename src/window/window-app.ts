import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type {} from '../http/auth.hook.js';
import { installJsonBodyParser } from '../http/body-checks.js';
import { installNotFoundHandler, MAX_PARAM_LENGTH } from '../http/error-handler.js';
import { schemaErrorFormatter, validatorCompiler } from '../http/validation.js';
import { sharedLogger } from '../http/shared-logger.js';
import { exportRoutes } from './routes/export.routes.js';
import { exportViewRoutes } from './routes/export-view.routes.js';
import { importRoutes } from './routes/import.routes.js';
import { jobRoutes } from './routes/job.routes.js';
import { massEditRoutes } from './routes/mass-edit.routes.js';
import { productGridRoutes } from './routes/product-grid.routes.js';
import { groupTreeRoutes } from './routes/group-tree.routes.js';
import { monitorRoutes } from './routes/monitor.routes.js';
import { openingRoutes } from './routes/opening.routes.js';
import { preferencesRoutes } from './routes/preferences.routes.js';
import { languagesRoutes } from './routes/languages.routes.js';
import { productSheetRoutes } from './routes/product-sheet.routes.js';
import { sessionRoutes } from './routes/session.routes.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { workspaceRoutes } from './routes/workspace.routes.js';
import type { WindowDeps } from './window-deps.js';
import { answerWindowFrameworkError, installWindowErrorHandler } from './window-errors.js';
import { WindowEvents } from './window-events.js';
import { logWindowRequest } from './window-log.js';
import { checkSameOrigin, passesEdge, sessionCookie } from './window-guard.js';

/** The window's page may load only its own scripts and styles (Mantine sets style attributes). */
const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Whether a path is under the window's API, however spelled (/ui/%61pi/x is /ui/api/x to the router). */
function underApi(url: string): boolean {
  const path = url.split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Undecodable paths never get here (frameworkErrors); kept as written all the same.
  }
  return decoded === '/ui/api' || decoded.startsWith('/ui/api/');
}

/**
 * The application window's server: the built front end (src/ui, in dist/ui) and the window's
 * own endpoints under /ui/api, thin adapters over the domain services. Served whether or not
 * the REST server runs; the window never goes through the REST server.
 */
export async function buildWindowApp(
  deps: WindowDeps,
  options: { logger?: FastifyServerOptions['logger']; loopbackOnly: () => boolean },
): Promise<FastifyInstance> {
  let logRequests = false;
  const app = Fastify({
    logger: options.logger ?? false,
    // Fastify's own request lines carry the raw URL, query string and all: logWindowRequest instead.
    logController: new LogController({ disableRequestLogging: true }),
    // No pino child per request (shared-logger.ts).
    childLoggerFactory: sharedLogger,
    bodyLimit: 64 * 1024,
    schemaErrorFormatter,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Refused before routing (a path that does not decode): no hook runs, so the edge runs here.
    // No hook runs for these requests, the logging one neither: logged here.
    frameworkErrors: (error, request, reply) => {
      answerWindowFrameworkError(error, request, reply, options.loopbackOnly());
      if (logRequests) logWindowRequest(request, reply);
    },
  });
  logRequests = ['trace', 'debug', 'info'].includes(app.log.level);
  app.addHook('onResponse', (request, reply, done) => {
    if (logRequests) logWindowRequest(request, reply);
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  // REST's parser: JSON in UTF-8 only (415 otherwise), a poison key a validation error.
  installJsonBodyParser(app);
  installWindowErrorHandler(app);
  app.decorateRequest('user', undefined);
  await app.register(cookie);

  app.addHook('onRequest', async (request, reply) => {
    if (!passesEdge(request, reply, options.loopbackOnly())) return reply;
    // Decided on the route the router matched, never on the URL as spelled: /ui/%61pi/status
    // matches the same route as /ui/api/status and meets the same demands.
    const route = request.routeOptions.url;
    if (route === undefined) {
      // No route (404 or 405, answered by the not-found hook below). Under the API's prefix, the
      // session first, as on REST: 401 before 404 and 405, nothing is learnt without a session.
      if (!underApi(request.url)) {
        reply.header('content-security-policy', WINDOW_CSP);
        return;
      }
      reply.header('cache-control', 'no-store');
      request.user = await deps.sessions.authenticateDesktop(sessionCookie(request));
      return;
    }
    if (!route.startsWith('/ui/api/')) {
      reply.header('content-security-policy', WINDOW_CSP);
      return;
    }
    reply.header('cache-control', 'no-store');
    checkSameOrigin(request);
    if (request.routeOptions.config.windowPublic === true) return;
    request.user = await deps.sessions.authenticateDesktop(sessionCookie(request));
  });

  // After the session check above; before the routes, whose methods it mirrors. The window
  // answers no OPTIONS (it grants no CORS), so Allow does not name it.
  installNotFoundHandler(app, { alsoAllowed: [] });

  const events = new WindowEvents(deps);
  app.addHook('preClose', async () => events.close());
  sessionRoutes(app, deps, events);
  workspaceRoutes(app, deps, events);
  settingsRoutes(app, deps);
  monitorRoutes(app, deps, events);
  usersRoutes(app, deps);
  preferencesRoutes(app, deps);
  productGridRoutes(app, deps);
  productSheetRoutes(app, deps);
  languagesRoutes(app);
  groupTreeRoutes(app, deps);
  importRoutes(app, deps, events);
  jobRoutes(app, deps, events);
  massEditRoutes(app, deps, events);
  exportRoutes(app, deps);
  exportViewRoutes(app, deps);
  openingRoutes(app, deps, events);

  if (existsSync(join(deps.uiDir, 'index.html'))) {
    // Hashed assets never change under their name: cached for a year. index.html is always checked.
    await app.register(fastifyStatic, {
      root: deps.uiDir,
      wildcard: false,
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader(
          'cache-control',
          path.includes(`${join('/', 'assets', '/')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.get('/', async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain')
        .send('The window has not been built: run npm run build (npm ci does it).'),
    );
  }
  return app;
}
