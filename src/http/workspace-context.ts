import type { FastifyRequest } from 'fastify';
import type { WorkspaceContext } from '../domain/context.js';
import { normalizeLanguage } from '../domain/languages/language.js';
import type { HttpDeps } from './http-deps.js';

/** The domain context of a request on the open workspace (`?lang=` chooses the name language). */
export function workspaceContext(
  request: FastifyRequest,
  deps: HttpDeps,
  language?: string,
): WorkspaceContext {
  const lang = language ?? (request.query as { lang?: string } | undefined)?.lang;
  return {
    workspace: deps.workspaces.requireOpen(),
    clock: deps.clock,
    user: request.user,
    language: lang === undefined ? undefined : normalizeLanguage(lang, 'lang'),
  };
}
