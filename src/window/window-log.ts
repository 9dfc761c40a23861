import type { FastifyReply, FastifyRequest } from 'fastify';
import { monitorPath } from '../http/monitor-path.js';

/**
 * The window's one log line per request, as REST writes it: method, path with the values of
 * secret query parameters masked (REST's monitorPath, so the window masks whatever REST masks),
 * status and time; never a body, cookie or raw URL.
 */
export function logWindowRequest(request: FastifyRequest, reply: FastifyReply): void {
  const ms = Math.round(reply.elapsedTime * 100) / 100;
  request.log.info(
    {
      reqId: request.id,
      method: request.method,
      path: monitorPath(request.url),
      status: reply.statusCode,
      ms,
    },
    'request',
  );
}
