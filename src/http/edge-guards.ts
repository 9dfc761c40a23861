import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCodeName } from '../domain/error-codes.js';
import { isLoopbackHost } from '../domain/settings/address-allow.js';
import { failure } from './envelope.js';
import type { HttpDeps } from './http-deps.js';

export const NOT_PERCENT_ENCODED =
  'The path is not valid percent-encoded UTF-8: percent-encode every character outside ASCII letters, digits ' +
  'and -._~ as its UTF-8 bytes (encodeURIComponent; ä is %C3%A4)';

/** The host part of a Host header: `name`, `name:port`, `[v6]` or `[v6]:port`. */
export function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  const colon = header.lastIndexOf(':');
  return colon >= 0 && header.indexOf(':') === colon ? header.slice(0, colon) : header;
}

const QUERY_NOT_PERCENT_ENCODED =
  "The query string is not valid percent-encoded UTF-8: a '%' must start %XX with two hex digits of UTF-8 " +
  "bytes (write '%' itself as %25, ä as %C3%A4)";

/**
 * What is wrong with the request target beyond its path (which Fastify checks): a `#` (a fragment
 * is the client's, never sent; Fastify read what followed it as a query string), or a query
 * string that is not valid percent-encoded UTF-8 (read literally before: `%FF` matched a
 * supplierPid spelt `%FF`).
 */
export function targetProblem(url: string): string | undefined {
  if (url.includes('#')) {
    return "The request target holds a '#': a fragment is not sent to a server; percent-encode it as %23";
  }
  const start = url.indexOf('?');
  if (start < 0) return undefined;
  try {
    decodeURIComponent(url.slice(start + 1));
    return undefined;
  } catch {
    return QUERY_NOT_PERCENT_ENCODED;
  }
}

function refuse(reply: FastifyReply, status: number, message: string, code: ErrorCodeName): void {
  void reply.code(status).header('access-control-allow-origin', '*').send(failure(message, code));
}

/**
 * The checks before anything else, CORS preflights included: the client's address against
 * `rest.allow` (403), a Host header at all (400), and, while bound to a loopback address, a Host
 * that names this machine (403): a page on another site that makes its own name resolve to
 * 127.0.0.1 (DNS rebinding) must not reach the local server through that name.
 */
export function installEdgeGuards(app: FastifyInstance, deps: HttpDeps): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const policy = deps.edgePolicy?.();
    const address = request.socket.remoteAddress ?? '';
    if (policy?.allows && !policy.allows(address)) {
      return refuse(
        reply,
        403,
        'This address may not call the REST server (setting rest.allow)',
        'ADDRESS_NOT_ALLOWED',
      );
    }
    const host = request.headers.host;
    if (!host) return refuse(reply, 400, 'The request has no Host header', 'HOST_MISSING');
    if (policy?.loopbackOnly !== false && !isLoopbackHost(hostName(host))) {
      return refuse(
        reply,
        403,
        'The server answers this machine only: call it as localhost or 127.0.0.1, not by another host name',
        'HOST_NOT_ALLOWED',
      );
    }
    const problem = targetProblem(request.raw.url ?? '');
    if (problem) return refuse(reply, 400, problem, 'INVALID_URL');
    done();
  });
}

/** Headers every answer carries: no sniffing, no referrer, no caching of data, no framing. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sets the security headers on an answer (the docs page keeps its own policy and caching). */
export function setSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  // Everything but the docs page is data that must not be cached (answers to authenticated
  // requests) or run as a page.
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', JSON_CSP);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    setSecurityHeaders(reply);
    done(null, payload);
  });
}
