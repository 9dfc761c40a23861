import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NoWorkspaceError } from '../domain/errors.js';
import type { Right } from '../domain/users/roles.js';
import type { AuthenticatedUser, SessionService } from '../domain/sessions/session.service.js';
import type { WorkspaceService } from '../domain/workspaces/workspace.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser | undefined;
  }
  interface FastifyContextConfig {
    /** Answers without a token (login). */
    public?: boolean;
    /** The right a user needs for this route. */
    right?: Right;
  }
}

const WORKSPACE_PREFIXES = ['/api/product', '/api/group'];
const PUBLIC_DOCS = ['/api/openapi.json', '/api/docs'];

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * The order of checks of decisions.md, before the body is even read:
 * token (401, also on unknown paths under /api), open workspace (409), right (403).
 * Unknown routes (404/405) and body errors (413/415/400) come after.
 */
export function installAuthHook(
  app: FastifyInstance,
  deps: { sessions: SessionService; workspaces: WorkspaceService },
): void {
  app.decorateRequest('user', undefined);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '/';
    if (!isUnder(path, '/api') || request.method === 'OPTIONS') return;
    const config = request.routeOptions.config;
    if (config?.public) return;
    if ((request.method === 'GET' || request.method === 'HEAD') && PUBLIC_DOCS.some((p) => isUnder(path, p)))
      return;
    request.user = await deps.sessions.authenticate(bearerToken(request));
    if (WORKSPACE_PREFIXES.some((p) => isUnder(path, p)) && !deps.workspaces.current())
      throw new NoWorkspaceError();
    if (config?.right && !request.user.rights.includes(config.right)) {
      throw new ForbiddenError(
        `Role ${request.user.role} lacks the right '${config.right}' this operation needs`,
      );
    }
  });
}
