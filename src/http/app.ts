import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { installAuthHook } from './auth.hook.js';
import { installConditionalRequests } from './conditional.js';
import { installCors } from './cors.js';
import { installEdgeGuards, installSecurityHeaders } from './edge-guards.js';
import {
  answerClientError,
  refuseTunnel,
  answerFrameworkError,
  installErrorHandler,
  installNotFoundHandler,
  MAX_PARAM_LENGTH,
} from './error-handler.js';
import type { HttpDeps } from './http-deps.js';
import type { PimApp } from './pim-app.js';
import { installOpenApi } from './openapi.js';
import { monitorPath } from './monitor-path.js';
import { registerRoutes } from './routes/index.js';
import { installNoBodyCheck } from './no-body.js';
import { MCP_PATH } from './routes/mcp.routes.js';
import { refuseForeignOrigin } from './routes/mcp.routes.js';
import { schemaErrorFormatter, validatorCompiler } from './validation.js';
import { installJsonBodyParser } from './body-checks.js';
import { sharedLogger } from './shared-logger.js';

export const BODY_LIMIT = 8 * 1024 * 1024;

/**
 * How long a client may take and how many may be connected: a client that trickles headers or a
 * body, or opens connections and sends nothing, must not hold the server's sockets for ever.
 */
export interface HttpLimits {
  /** Headers complete within this time after the connection opened or the last request ended. */
  headersTimeoutMs: number;
  /** The whole request, body included, within this time. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; further ones are closed at once. */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
};

export interface HttpAppOptions {
  /** pino options, or false for no logging. */
  logger?: FastifyServerOptions['logger'];
  limits?: Partial<HttpLimits>;
}

export async function buildHttpApp(deps: HttpDeps, options: HttpAppOptions = {}): Promise<PimApp> {
  // Synchronous, and nothing formatted that nobody reads: this runs for every request.
  let logRequests = false;
  const record = (request: FastifyRequest, reply: FastifyReply) => {
    const path = monitorPath(request.url);
    const durationMs = Math.round(reply.elapsedTime * 100) / 100;
    if (logRequests) {
      request.log.info(
        { reqId: request.id, method: request.method, path, status: reply.statusCode, ms: durationMs },
        'request',
      );
    }
    deps.onRequestDone?.({
      method: request.method,
      path,
      user: request.user?.username,
      status: reply.statusCode,
      at: Date.now(),
      durationMs,
    });
  };
  const limits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Timeouts are enforced by a periodic check; check often enough for the shortest one.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
      // A request without Host is answered in the envelope (edge-guards.ts), not by Node's bare 400.
      requireHostHeader: false,
    },
    // One line per request, written by `record`: method, path, status, time; never a body or token.
    logController: new LogController({ disableRequestLogging: true }),
    logger: options.logger ?? false,
    // No pino child per request (shared-logger.ts).
    childLoggerFactory: sharedLogger,
    schemaErrorFormatter,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    // Requests refused before routing run no hook: they are recorded here.
    frameworkErrors: (error, request, reply) => {
      answerFrameworkError(error, reply);
      record(request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as PimApp;
  app.server.maxConnections = limits.maxConnections;
  app.server.on('connect', refuseTunnel);
  app.setValidatorCompiler(validatorCompiler);
  logRequests = ['trace', 'debug', 'info'].includes(app.log.level);

  installJsonBodyParser(app);

  installErrorHandler(app);
  // First of all hooks: an address or Host refused here learns nothing else.
  installEdgeGuards(app, deps);
  installSecurityHeaders(app);
  // Before the token check: a foreign page learns nothing from the MCP endpoint.
  app.addHook('onRequest', refuseForeignOrigin);
  installCors(app);
  installAuthHook(app, deps);
  // After the auth hook: 401 and 409 come before 404 and 405 (decisions.md, order of checks).
  installNotFoundHandler(app);

  app.addHook('onResponse', (request, reply, done) => {
    record(request, reply);
    done();
  });

  await installOpenApi(app);
  // Before the routes: its onRoute hook documents them.
  installConditionalRequests(app, deps);
  installNoBodyCheck(app, (url) => url === MCP_PATH);
  registerRoutes(app, deps);
  return app;
}
