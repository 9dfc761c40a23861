import type { FastifyInstance } from 'fastify';

/**
 * CORS as the spec asks (`Access-Control-Allow-Origin: *` on every answer; preflights answered
 * without a token), with what @fastify/cors did for pim's fixed options and nothing else: the
 * plugin, built for per-route and dynamic options, read `request.routeOptions` twice (each read
 * builds an object) and copied its options object on every request. Here every value is fixed
 * when the server is built and a request costs two header assignments.
 */
const ANSWER_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Location, Link, Retry-After, Allow, WWW-Authenticate, ETag',
} as const;

/** A preflight's answer: any origin, these methods and request headers, cached 10 minutes. */
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, If-None-Match, If-Match',
  'access-control-max-age': '600',
  // Some browsers (Safari) wait for a body of a 204 without it.
  'content-length': '0',
} as const;

/**
 * Every request gets the CORS answer headers; every OPTIONS request is a preflight, answered 204
 * in this hook (before the token check: browsers send no credentials with a preflight), Origin or
 * not. The route `OPTIONS *` only makes every path match OPTIONS; the hook answers first.
 */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(ANSWER_HEADERS);
    if (request.method !== 'OPTIONS') return done();
    void reply.code(204).headers(PREFLIGHT_HEADERS).send();
  });
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.send());
}
