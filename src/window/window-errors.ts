import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { domainErrorOf } from '../domain/domain-error-of.js';
import { errorStatus, type ErrorCodeName } from '../domain/error-codes.js';
import { BodyRefusal, FASTIFY_ERRORS, frameworkRefusal, retryAfterOf } from '../http/error-handler.js';
import { failure } from '../http/envelope.js';
import { passesEdge } from './window-guard.js';

/** Fastify's refusals of a body, in pim's codes and statuses: REST's table, and the window's body limit. */
const FRAMEWORK_ERRORS: Record<string, [ErrorCodeName, string]> = {
  ...FASTIFY_ERRORS,
  FST_ERR_CTP_BODY_TOO_LARGE: ['BODY_TOO_LARGE', 'Request body is larger than the limit of 64 KiB'],
};

/**
 * The window's errors: the envelope with REST's sentence and code (the window translates codes
 * it knows into the user's language and shows the sentence otherwise). `field` names the input
 * at fault where the window shows the message beside a field.
 */
export function installWindowErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | DomainError | Error, request, reply) => {
    const error = domainErrorOf(thrown) ?? thrown;
    if (error instanceof DomainError) {
      const field = (error as DomainError & { field?: string }).field;
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
      return reply
        .code(errorStatus(error.detailCode))
        .send({ ...failure(error.message, error.detailCode), ...(field ? { field } : {}) });
    }
    if (error instanceof BodyRefusal)
      return reply.code(errorStatus(error.code)).send(failure(error.message, error.code));
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) return reply.code(400).send(failure(error.message, 'VALIDATION_FAILED'));
    const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
    if (known) return reply.code(errorStatus(known[0])).send(failure(known[1], known[0]));
    if (fastifyError.statusCode && fastifyError.statusCode < 500) {
      return reply.code(400).send(failure('The request is malformed', 'MALFORMED_REQUEST'));
    }
    request.log.error({ err: error }, 'unexpected error in the window server');
    if (process.env.PIM_DEBUG_WINDOW) console.error(error);
    return reply.code(500).send(failure('Internal server error', 'INTERNAL'));
  });
}

/**
 * A request Fastify refuses before routing (a path that does not decode, a path segment over the
 * limit): no hook runs for it, so the edge (headers, Host check) runs here first, then REST's answer.
 */
export function answerWindowFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  loopbackOnly: boolean,
): void {
  if (!passesEdge(request, reply, loopbackOnly)) return;
  const [status, message, code] = frameworkRefusal(error);
  void reply.code(status).header('cache-control', 'no-store').send(failure(message, code));
}
