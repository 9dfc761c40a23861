import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { UnauthorizedError } from '../domain/errors.js';
import type {} from '../http/auth.hook.js';
import { failure } from '../http/envelope.js';
import { MAX_PARAM_LENGTH } from '../http/error-handler.js';
import { schemaErrorFormatter, validatorCompiler } from '../http/validation.js';
import { monitorRoutes } from './routes/monitor.routes.js';
import { sessionRoutes } from './routes/session.routes.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { workspaceRoutes } from './routes/workspace.routes.js';
import type { WindowDeps } from './window-deps.js';
import { answerWindowFrameworkError, installWindowErrorHandler } from './window-errors.js';
import { WindowEvents } from './window-events.js';
import { checkSameOrigin, passesEdge, sessionCookie } from './window-guard.js';

/** The window's page may load only its own scripts and styles (Mantine sets style attributes). */
const WINDOW_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The application window's server: the built front end (src/ui, in dist/ui) and the window's
 * own endpoints under /ui/api, thin adapters over the domain services. Served whether or not
 * the REST server runs; the window never goes through the REST server.
 */
export async function buildWindowApp(
  deps: WindowDeps,
  options: { logger?: FastifyServerOptions['logger']; loopbackOnly: () => boolean },
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 64 * 1024,
    schemaErrorFormatter,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Refused before routing (a path that does not decode): no hook runs, so the edge runs here.
    frameworkErrors: (error, request, reply) =>
      answerWindowFrameworkError(error, request, reply, options.loopbackOnly()),
  });
  app.setValidatorCompiler(validatorCompiler);
  // JSON only, as on REST: any other body answers 415.
  app.removeContentTypeParser('text/plain');
  installWindowErrorHandler(app);
  app.decorateRequest('user', undefined);
  await app.register(cookie);

  app.addHook('onRequest', async (request, reply) => {
    if (!passesEdge(request, reply, options.loopbackOnly())) return reply;
    // Decided on the route the router matched, never on the URL as spelled: /ui/%61pi/status
    // matches the same route as /ui/api/status and meets the same demands.
    const route = request.routeOptions.url;
    if (route === undefined) {
      // No route: no handler runs. Under the API's prefix, 401 before 404 (nothing is learnt without a session).
      if (request.url.startsWith('/ui/api/'))
        throw new UnauthorizedError('Log in to the window first', 'UNAUTHORIZED');
      reply.header('content-security-policy', WINDOW_CSP);
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

  const events = new WindowEvents(deps);
  app.addHook('preClose', async () => events.close());
  sessionRoutes(app, deps, events);
  workspaceRoutes(app, deps, events);
  settingsRoutes(app, deps);
  monitorRoutes(app, deps, events);
  usersRoutes(app, deps);
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(failure(`No window endpoint ${request.method} ${request.url.split('?')[0]}`, 'ROUTE_NOT_FOUND')),
  );

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
