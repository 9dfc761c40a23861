import type { Duplex } from 'node:stream';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import FindMyWay from 'find-my-way';
import { DomainError, ServiceBusyError, TooManyRequestsError } from '../domain/errors.js';
import { domainErrorOf } from '../domain/domain-error-of.js';
import { NOT_PERCENT_ENCODED, setSecurityHeaders } from './edge-guards.js';
import { failure } from './envelope.js';
import { errorStatus, type ErrorCodeName } from '../domain/error-codes.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Refusals of the request (body, framework) are answered as JSON-RPC errors (the MCP endpoint). */
    jsonRpcErrors?: boolean;
  }
}

/** The longest path parameter accepted (an ftidref, a language code, an id). */
export const MAX_PARAM_LENGTH = 1000;

/** Fastify's own errors, answered with pim's codes: no FST_ code reaches a client. */
export const FASTIFY_ERRORS: Record<string, [ErrorCodeName, string]> = {
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['INVALID_CONTENT_LENGTH', 'Content-Length does not match the body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'Request body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'Request body is not valid JSON'],
};

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/**
 * RFC 6750: every 401 says which scheme to use; a token that was sent but is not (or no longer)
 * valid adds error="invalid_token". Wrong login credentials are not a token problem: plain Bearer.
 */
function wwwAuthenticate(error: DomainError): string | undefined {
  if (error.code !== 'UNAUTHORIZED') return undefined;
  const invalid = error.detailCode === 'TOKEN_INVALID' || error.detailCode === 'TOKEN_EXPIRED';
  return invalid
    ? `Bearer realm="pim", error="invalid_token", error_description="${error.message.replace(/"/g, "'")}"`
    : 'Bearer realm="pim"';
}

/** What the REST client can do about an error, where the domain's sentence cannot say it. */
const REST_HINTS: Partial<Record<string, string>> = {
  NO_WORKSPACE_OPEN: 'open one with POST /api/workspace/open',
};

function restMessage(error: DomainError): string {
  const hint = REST_HINTS[error.detailCode ?? error.code];
  return hint ? `${error.message}: ${hint}` : error.message;
}

/** Seconds a client should wait before it tries again (429, 503), for Retry-After; REST and the window. */
export function retryAfterOf(error: DomainError): number | undefined {
  return error instanceof TooManyRequestsError || error instanceof ServiceBusyError
    ? error.retryAfterSeconds
    : undefined;
}

/** Node's error for a request whose client stopped sending its body (`aborted`, ECONNRESET). */
function bodyCutShort(error: Error): boolean {
  return (error as { code?: unknown }).code === 'ECONNRESET' && error.message === 'aborted';
}

/** A body refused before the route's handler (its encoding, its charset): answered with its code. */
export class BodyRefusal extends Error {
  constructor(
    readonly code: ErrorCodeName,
    message: string,
  ) {
    super(message);
  }
}

/** The body types the matched route takes: its schema's `content` (the bulk upsert: also NDJSON), else JSON. */
function acceptedMediaTypes(request: FastifyRequest): string[] {
  const body = request.routeOptions.schema?.body as { content?: Record<string, unknown> } | undefined;
  return body?.content ? Object.keys(body.content) : ['application/json'];
}

/**
 * The code and sentence for an error the framework or a body parser raised; undefined for a fault.
 * REST's and the window's error handlers both answer with it.
 */
export function refusalOf(error: FastifyError, request: FastifyRequest): [ErrorCodeName, string] | undefined {
  if (error instanceof BodyRefusal) return [error.code, error.message];
  if (error.validation) return ['VALIDATION_FAILED', error.message];
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit ?? 8 * 1024 * 1024;
    return ['BODY_TOO_LARGE', `Request body is larger than the limit of ${formatBytes(limit)}`];
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return ['UNSUPPORTED_MEDIA_TYPE', `Request body must be ${acceptedMediaTypes(request).join(' or ')}`];
  }
  const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
  if (known) return [known[0], known[1]];
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return ['INVALID_JSON', 'Request body is not valid JSON'];
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Any other refusal of the framework's is a malformed request in pim's terms.
    request.log.warn({ reqId: request.id, err: error }, 'request refused by the framework');
    return ['MALFORMED_REQUEST', 'The request is malformed'];
  }
  return undefined;
}

/**
 * The MCP endpoint answers a body it cannot read as the MCP SDK answers it: a JSON-RPC error
 * with no id (-32700 for a body that is not JSON, -32000 for others), at the HTTP status REST
 * would use. Authentication (401, with WWW-Authenticate) stays as for REST.
 */
function sendJsonRpcError(reply: FastifyReply, code: ErrorCodeName, message: string) {
  const parseError = code === 'INVALID_JSON' || code === 'VALIDATION_FAILED';
  return reply.code(errorStatus(code)).send({
    jsonrpc: '2.0',
    error: { code: parseError ? -32700 : -32000, message: parseError ? `Parse error: ${message}` : message },
    id: null,
  });
}

/**
 * Every error becomes the envelope: domain errors through the status table, Fastify's
 * own errors (parsing, validation) with a clear message, anything else as a 500 whose
 * detail goes to the log only.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | DomainError | Error, request, reply) => {
    if (bodyCutShort(thrown)) {
      // The client, not the database: its ECONNRESET must not read as a database outage.
      request.log.info({ reqId: request.id }, 'the client ended the connection before its body was complete');
      return reply
        .code(400)
        .send(failure('The request body ended before it was complete', 'MALFORMED_REQUEST'));
    }
    const error = domainErrorOf(thrown, request.routeOptions.config?.unreachable) ?? thrown;
    if (error instanceof DomainError) {
      if (error.cause !== undefined) request.log.warn({ reqId: request.id, err: error.cause }, error.message);
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
      const challenge = wwwAuthenticate(error);
      if (challenge) reply.header('WWW-Authenticate', challenge);
      return reply.code(errorStatus(error.detailCode)).send(failure(restMessage(error), error.detailCode));
    }
    const refused = refusalOf(error as FastifyError, request);
    if (refused) {
      const [code, message] = refused;
      if (code === 'BODY_TOO_LARGE') {
        // Fastify closes the connection here, while the client is still sending: the client then
        // often sees a reset instead of this answer. Kept open, Node reads and discards the rest
        // of the body (bounded by the request timeout) and the client reads its 413.
        reply.removeHeader('connection');
      }
      if (request.routeOptions.config?.jsonRpcErrors === true) return sendJsonRpcError(reply, code, message);
      return reply.code(errorStatus(code)).send(failure(message, code));
    }
    request.log.error({ reqId: request.id, err: error }, 'unexpected error');
    return reply.code(500).send(failure('Internal server error', 'INTERNAL'));
  });
}

/**
 * Errors Fastify raises before routing (Fastify's `frameworkErrors` option): a path whose
 * percent-encoding does not decode (`%FF`, `%E0%A4%A`), a path parameter over the length limit.
 * Fastify answers these in its own format (the second with 414); pim answers both with 400 in
 * the envelope, like any other bad input. Shared by REST and the window.
 */
export function frameworkRefusal(error: FastifyError): [number, string, ErrorCodeName] {
  return error.code === 'FST_ERR_MAX_PARAM_LENGTH'
    ? [400, `A path segment is longer than ${MAX_PARAM_LENGTH} characters`, 'PATH_SEGMENT_TOO_LONG']
    : error.code === 'FST_ERR_BAD_URL'
      ? [400, NOT_PERCENT_ENCODED, 'INVALID_URL']
      : [500, 'Internal server error', 'INTERNAL'];
}

/** REST's answer to a framework error. No hook has run for it, so the CORS header is set here. */
export function answerFrameworkError(error: FastifyError, reply: FastifyReply): void {
  const [status, message, code] = frameworkRefusal(error);
  setSecurityHeaders(reply);
  void reply.code(status).header('access-control-allow-origin', '*').send(failure(message, code));
}

const CLIENT_ERRORS: Record<string, [number, string, string, ErrorCodeName]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'The request took too long to arrive',
    'REQUEST_TIMEOUT',
  ],
  // Raw bytes outside ASCII in the request line: a client that forgot to percent-encode.
  HPE_INVALID_URL: [400, 'Bad Request', NOT_PERCENT_ENCODED, 'INVALID_URL'],
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request headers are too large',
    'HEADERS_TOO_LARGE',
  ],
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an unknown method such as
 * `FOO`, a malformed request line or header, headers over the size limit, a timeout): the
 * answer is the envelope too, written to the socket, which is then closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message, code] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'The request is not valid HTTP/1.1 (method, request line or headers)',
    'MALFORMED_REQUEST',
  ];
  writeAndClose(socket, status, reason, message, code, error);
}

/** The envelope written to a socket Fastify never saw, which is then closed. */
function writeAndClose(
  socket: Duplex,
  status: number,
  reason: string,
  message: string,
  code: ErrorCodeName,
  error?: Error,
): void {
  if (socket.writable) {
    const body = JSON.stringify(failure(message, code));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\n` +
        'X-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\nCache-Control: no-store\r\n' +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * CONNECT asks for a tunnel: Node hands it to the server's 'connect' listeners, not to Fastify,
 * and without one closes the connection without a word. It is answered in the envelope.
 */
export function refuseTunnel(_request: unknown, socket: Duplex): void {
  socket.on('error', () => undefined);
  writeAndClose(
    socket,
    400,
    'Bad Request',
    'CONNECT asks for a tunnel, and pim is no proxy: send requests to it directly',
    'MALFORMED_REQUEST',
  );
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** The parameter checks installNotFoundHandler added to routes (to add one once per route). */
const PARAMETER_CHECKS = new WeakSet<object>();

/** The path of a request target, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Unknown routes answer 404; a known path with another method answers 405 with Allow.
 * Fastify itself answers 404 for both, so the routes are mirrored into a router that
 * can be asked which methods a path has.
 */
export function installNotFoundHandler(
  app: FastifyInstance,
  // Methods every path answers besides its routes' (REST: OPTIONS, the CORS preflight).
  { alsoAllowed = ['OPTIONS'] }: { alsoAllowed?: string[] } = {},
): void {
  const router = FindMyWay();
  /** The methods of each path that names no parameter, e.g. GET of /api/product/deleted. */
  const staticMethods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    addParameterCheck(route);
    for (const method of [route.method].flat()) {
      if (method === 'OPTIONS' || method === 'HEAD') continue;
      if (!router.find(method as (typeof METHODS)[number], route.url))
        router.on(method as 'GET', route.url, () => {});
      if (route.url.includes(':')) continue;
      const methods = staticMethods.get(route.url) ?? new Set<string>();
      staticMethods.set(route.url, methods.add(method));
    }
  });
  /** The methods a path allows: a static path's own, else every route matching it. */
  const allowedMethods = (path: string): string[] => {
    const own = staticMethods.get(path);
    return own ? METHODS.filter((m) => own.has(m)) : METHODS.filter((m) => router.find(m, path) !== null);
  };
  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A trailing slash names no endpoint (it would match a route with an empty parameter).
    const trailing = path.length > 1 && path.endsWith('/');
    const allowed = trailing ? [] : allowedMethods(path);
    // A route of this very method that found nothing (a file the docs' assets lack): 404, not 405.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (allowed.length > 0 && !allowed.includes(method as (typeof METHODS)[number])) {
      const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), ...alsoAllowed];
      return reply
        .code(405)
        .header('Allow', allow.join(', '))
        .send(
          failure(
            `Method ${request.method} is not allowed on ${path}; allowed: ${allow.join(', ')}`,
            'METHOD_NOT_ALLOWED',
          ),
        );
    }
    const trimmed = path.replace(/(.)\/+$/, '$1');
    const hint =
      trimmed !== path && router.find(request.method as (typeof METHODS)[number], trimmed) !== null
        ? `; remove the trailing slash: ${request.method} ${trimmed}`
        : '';
    return reply
      .code(404)
      .send(failure(`No such endpoint: ${request.method} ${path}${hint}`, 'ROUTE_NOT_FOUND'));
  };
  /**
   * A route with parameters may match a path that names no endpoint; decided per route when it
   * is registered, so that a route without parameters pays nothing for it.
   */
  const addParameterCheck = (route: RouteOptions): void => {
    if (!route.url.includes(':') && !route.url.includes('*')) return;
    const existing = [route.onRequest ?? []].flat();
    // A GET's HEAD twin may pass through here with the GET's hooks: one check is enough.
    if (existing.some((hook) => PARAMETER_CHECKS.has(hook))) return;
    const named = route.url.includes(':');
    const check: onRequestHookHandler = (request, reply, done) => {
      // `/api/product/` matches `/api/product/:id` with an empty id: no such endpoint either.
      const emptyParam = Object.values((request.params ?? {}) as Record<string, unknown>).includes('');
      // A parametric route matched a path that names no parameter (PUT /api/product/:id on
      // /api/product/deleted, which has GET only): a method the path lacks, 405 as for any other,
      // not 400 for an id that is not a number. The router prefers a static route of the method.
      const shadowed = named && staticMethods.has(pathOf(request.url));
      if (emptyParam || shadowed) answer(request, reply);
      else done();
    };
    PARAMETER_CHECKS.add(check);
    // A route's own onRequest hooks run after every global one: after the token and workspace
    // checks, as the global hook below.
    route.onRequest = [...existing, check];
  };
  // Fastify reads the body of an unknown route before its not-found handler runs, so a large
  // body would answer 413 instead of 404/405. Answer in onRequest (after the token and
  // workspace checks, which are registered earlier) before any body is read.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) answer(request, reply);
    else done();
  });
  app.setNotFoundHandler(answer);
}
