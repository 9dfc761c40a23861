import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { installAuthHook } from './auth.hook.js';
import {
  answerClientError,
  answerFrameworkError,
  installErrorHandler,
  installNotFoundHandler,
  MAX_PARAM_LENGTH,
} from './error-handler.js';
import type { HttpDeps } from './http-deps.js';
import { installOpenApi } from './openapi.js';
import { registerRoutes } from './routes/index.js';
import { schemaErrorFormatter, validatorCompiler } from './validation.js';

export const BODY_LIMIT = 8 * 1024 * 1024;

export type PimApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface HttpAppOptions {
  /** pino options, or false for no logging. */
  logger?: FastifyServerOptions['logger'];
}

export async function buildHttpApp(deps: HttpDeps, options: HttpAppOptions = {}): Promise<PimApp> {
  // Synchronous, and nothing formatted that nobody reads: this runs for every request.
  let logRequests = false;
  const record = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const durationMs = Math.round(reply.elapsedTime * 100) / 100;
    if (logRequests) {
      request.log.info({ method: request.method, path, status: reply.statusCode, ms: durationMs }, 'request');
    }
    deps.onRequestDone?.({
      method: request.method,
      path,
      status: reply.statusCode,
      at: Date.now(),
      durationMs,
    });
  };
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // One line per request, written by `record`: method, path, status, time; never a body or token.
    logController: new LogController({ disableRequestLogging: true }),
    logger: options.logger ?? false,
    schemaErrorFormatter,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    // Requests refused before routing run no hook: they are recorded here.
    frameworkErrors: (error, request, reply) => {
      answerFrameworkError(error, reply);
      record(request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as PimApp;
  app.setValidatorCompiler(validatorCompiler);
  logRequests = ['trace', 'debug', 'info'].includes(app.log.level);

  // JSON only: any other content type answers 415. An empty JSON body reads as no body,
  // because many clients send the header on every request.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  installErrorHandler(app);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: ['Location', 'Link', 'Retry-After', 'Allow', 'WWW-Authenticate'],
    maxAge: 600,
    strictPreflight: false,
  });
  installAuthHook(app, deps);
  // After the auth hook: 401 and 409 come before 404 and 405 (decisions.md, order of checks).
  installNotFoundHandler(app);

  app.addHook('onResponse', (request, reply, done) => {
    record(request, reply);
    done();
  });

  await installOpenApi(app);
  registerRoutes(app, deps);
  return app;
}
