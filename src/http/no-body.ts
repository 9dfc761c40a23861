import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { ValidationError } from '../domain/errors.js';

/** Methods whose body Fastify never reads (request.body stays undefined): nothing to refuse there. */
const BODY_NEVER_READ = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Routes that take no body (DELETE, logout, workspace lists...) refuse one that says something:
 * "unknown fields in any body: 400" (decisions.md). Read and ignored, `{"deleteProducts": true}`
 * sent to DELETE /api/group/{id} as a body deleted the group and only ungrouped its products,
 * answered 200. An empty body, and `{}` (what many clients send by habit), say nothing and pass.
 * Routes that read their body themselves (MCP) declare `ownBody`. Decided per route when it is
 * registered: GET and HEAD routes (most requests) get no hook at all.
 */
export function installNoBodyCheck(app: FastifyInstance, ownBody: (url: string) => boolean): void {
  app.addHook('onRoute', (route) => {
    if (route.schema?.body || ownBody(route.url)) return;
    if ([route.method].flat().every((method) => BODY_NEVER_READ.has(method))) return;
    const hooks = [route.preValidation ?? []].flat();
    route.preValidation = [...hooks, refuseBodyHook];
  });
}

/** A callback hook, not an async one: no promise per request. */
const refuseBodyHook: preValidationHookHandler = (request, _reply, done) => {
  try {
    refuseBody(request.body);
  } catch (error) {
    return done(error as Error);
  }
  done();
};

function refuseBody(body: unknown): void {
  if (body === undefined) return;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('This request takes no body: send none, or an empty JSON object');
  }
  const [first] = Object.keys(body);
  if (first !== undefined) throw new ValidationError(`Unknown field '${first}': this request takes no body`);
}
