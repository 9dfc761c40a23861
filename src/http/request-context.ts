import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../domain/context.js';
import { UnauthorizedError } from '../domain/errors.js';
import { normalizeLanguage } from '../domain/languages/language.js';
import type { HttpDeps } from './http-deps.js';

/**
 * The domain context of a request: the authenticated user, the open workspace (if any; the
 * services require it themselves), the clock, and the language of `?lang=`.
 */
export function requestContext(request: FastifyRequest, deps: HttpDeps, language?: string): RequestContext {
  const actor = request.user;
  // The auth hook sets the user on every route that is not public; a handler of a public
  // route asking for a context is a programming error, refused rather than run as nobody.
  if (!actor) throw new UnauthorizedError();
  const lang = language ?? (request.query as { lang?: string } | undefined)?.lang;
  return {
    actor,
    workspace: deps.workspaces.current(),
    clock: deps.clock,
    language: lang === undefined ? undefined : normalizeLanguage(lang, 'lang'),
  };
}
