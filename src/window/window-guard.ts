import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../domain/errors.js';
import { isLoopbackHost } from '../domain/settings/address-allow.js';
import { hostName } from '../http/edge-guards.js';
import { failure } from '../http/envelope.js';

/** The header every state-changing request of the window carries (a cross-site form cannot set it). */
export const WINDOW_HEADER = 'x-pim-window';
export const SESSION_COOKIE = 'pim_desktop';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A window endpoint that answers without a desktop session (the session's own endpoints). */
    windowPublic?: boolean;
  }
}

/**
 * CSRF protection of the window's endpoints, on top of the SameSite=Strict cookie: a request
 * that changes something must carry X-Pim-Window (forcing a CORS preflight, which this server
 * never grants) and, when the browser sends an Origin, come from the window's own origin.
 */
export function checkSameOrigin(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (request.headers[WINDOW_HEADER] !== '1') {
    throw new ForbiddenError('The request does not come from the application window', 'CSRF_REFUSED');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ForbiddenError('The request comes from another site', 'CSRF_REFUSED');
  }
  if (originHost !== request.headers.host) {
    throw new ForbiddenError('The request comes from another site', 'CSRF_REFUSED');
  }
}

/** While bound to loopback, the Host must name this machine (DNS rebinding), as on the REST server. */
export function hostAllowed(request: FastifyRequest, loopbackOnly: boolean): boolean {
  const host = request.headers.host;
  if (!host) return false;
  if (!loopbackOnly) return true;
  return isLoopbackHost(hostName(host));
}

/**
 * The first step of every window answer, also of requests refused before routing: the headers
 * every answer carries, then the Host check. False when the request was refused (answered 403).
 */
export function passesEdge(request: FastifyRequest, reply: FastifyReply, loopbackOnly: boolean): boolean {
  reply.header('x-content-type-options', 'nosniff').header('referrer-policy', 'no-referrer');
  if (hostAllowed(request, loopbackOnly)) return true;
  void reply
    .code(403)
    .send(
      failure('The window answers this machine only: open it as localhost or 127.0.0.1', 'HOST_NOT_ALLOWED'),
    );
  return false;
}

export function sessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies?.[SESSION_COOKIE];
}

export function setSessionCookie(reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/ui/api' });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/ui/api' });
}
