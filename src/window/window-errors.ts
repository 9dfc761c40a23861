import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { domainErrorOf } from '../domain/domain-error-of.js';
import { errorStatus } from '../domain/error-codes.js';
import { frameworkRefusal, refusalOf, retryAfterOf } from '../http/error-handler.js';
import { failure } from '../http/envelope.js';
import { passesEdge } from './window-guard.js';

/**
 * What the window needs, beyond the sentence, to say an error in the user's language: the values
 * a translation takes (`PORT_IN_USE`: port, host and why; a schema's refusal: its rule and limit).
 */
export type ErrorParams = Record<string, string | number>;

/**
 * The window's errors: the envelope with REST's sentence and code (the window translates codes
 * it knows into the user's language and shows the sentence otherwise). `field` names the input
 * at fault where the window shows the message beside a field, `params` the values a translation
 * of the sentence needs.
 */
export function installWindowErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | DomainError | Error, request, reply) => {
    const error = domainErrorOf(thrown, request.routeOptions.config?.unreachable) ?? thrown;
    if (error instanceof DomainError) {
      const { field, params } = error as DomainError & { field?: string; params?: ErrorParams };
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
      return reply.code(errorStatus(error.detailCode)).send({
        ...failure(error.message, error.detailCode),
        ...(field ? { field } : {}),
        ...(params ? { params } : {}),
      });
    }
    // Refusals of the body or the request (415, 413, 400): REST's codes and sentences.
    const refused = refusalOf(error as FastifyError, request);
    if (refused) {
      const field = schemaField(error);
      const params = schemaRule(error);
      return reply.code(errorStatus(refused[0])).send({
        ...failure(refused[1], refused[0]),
        ...(field ? { field } : {}),
        ...(params ? { params } : {}),
      });
    }
    request.log.error({ reqId: request.id, err: error }, 'unexpected error in the window server');
    if (process.env.PIM_DEBUG_WINDOW) console.error(error);
    return reply.code(500).send(failure('Internal server error', 'INTERNAL'));
  });
}

/**
 * The body property a schema refused ("/port" → "port"), so that the window shows the message
 * under that field: Fastify puts the validator's findings on the error it throws.
 */
function schemaField(thrown: unknown): string | undefined {
  const path = (thrown as { validation?: { instancePath?: string }[] }).validation?.[0]?.instancePath;
  return path ? path.slice(1).replaceAll('/', '.') : undefined;
}

/**
 * The rule a schema refused a value by, with its limit ({rule: 'maxLength', limit: 253}): the
 * window says it in the user's language, naming the field by its label.
 */
function schemaRule(thrown: unknown): ErrorParams | undefined {
  const first = (thrown as { validation?: { keyword?: string; params?: { limit?: unknown } }[] })
    .validation?.[0];
  if (!first?.keyword) return undefined;
  const limit = first.params?.limit;
  return { rule: first.keyword, ...(typeof limit === 'number' ? { limit } : {}) };
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
