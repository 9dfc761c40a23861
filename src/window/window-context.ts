import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../domain/context.js';
import type {} from '../http/auth.hook.js';
import type { WindowDeps } from './window-deps.js';

/** The domain context of a window request: the desktop session's user (set by the window's hook). */
export function windowContext(request: FastifyRequest, deps: WindowDeps): RequestContext {
  return { actor: request.user!, clock: deps.clock, workspace: deps.workspaces.current() };
}
