import type { FastifyBaseLogger } from 'fastify';

/**
 * Fastify's childLoggerFactory that builds no child: by default Fastify builds a pino child for
 * every request (its bindings serialised each time) only to add `reqId`; here every request logs
 * through the server's logger, and the few lines that name a request carry `reqId` themselves.
 */
export function sharedLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger;
}
