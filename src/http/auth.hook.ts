import { posix } from 'node:path';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NoWorkspaceError } from '../domain/errors.js';
import type { AuthenticatedUser } from '../domain/sessions/authenticated-user.js';
import type { SessionService } from '../domain/sessions/session.service.js';
import type { OpenWorkspace } from '../domain/workspaces/open-workspace.js';
import { MUST_FOLLOW, type WorkspaceService } from '../domain/workspaces/workspace.service.js';
import './route-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthenticatedUser | undefined;
  }
}

/**
 * For requests that match no route only, where no handler runs and the answer is an error
 * either way: the API's area (401 before 404) and its catalogue area (409 before 404), judged
 * on the normalised path so that no spelling of a path changes the answer.
 */
const API_AREA = /^\/api(?:\/|$)/;
const WORKSPACE_AREAS = /^\/api\/(?:product|group)(?:\/|$)/;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * The path of a request that matched no route, normalised: without scheme and host (absolute
 * form), percent-decoded, dot segments and repeated slashes resolved, lower case.
 */
function normalisedPath(request: FastifyRequest): string {
  let path = (request.url.split('?', 1)[0] ?? '/').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // Undecodable paths are refused before routing (INVALID_URL); keep it as written.
  }
  return posix.normalize(`/${path}`).toLowerCase();
}

/**
 * The order of checks of decisions.md, before the body is even read: token (401), open
 * workspace (409), right (403); unknown routes (404/405) and body errors (413/415/400) come after.
 *
 * Everything is decided on the route the router matched (its `config`, see route-access.ts),
 * never on the URL as the client spelled it. A request under /api that matches no route needs
 * a token too (401 before 404), so that nothing about the API is learnt without one. The services check the workspace
 * and the right again: this hook is the fast first line, not the only one.
 */
export function installAuthHook(
  app: FastifyInstance,
  deps: { sessions: SessionService; workspaces: WorkspaceService },
): void {
  app.decorateRequest('user', undefined);

  /** 409 and 403 of a matched route, once the user and the open workspace are known. */
  const checkRoute = (
    request: FastifyRequest,
    config: FastifyContextConfig,
    workspace: OpenWorkspace | undefined,
  ): void => {
    if (config.workspace === true && !workspace) throw new NoWorkspaceError();
    if (config.right && !request.user!.rights.includes(config.right)) {
      throw new ForbiddenError(
        `Role ${request.user!.role} lacks the right '${config.right}' this operation needs`,
      );
    }
  };

  const checkSlowly = async (
    request: FastifyRequest,
    config: FastifyContextConfig | undefined,
  ): Promise<void> => {
    if (config === undefined) {
      const path = normalisedPath(request);
      if (!API_AREA.test(path)) return;
      request.user = await deps.sessions.authenticate(bearerToken(request));
      if (WORKSPACE_AREAS.test(path) && !(await deps.workspaces.follow())) throw new NoWorkspaceError();
      return;
    }
    request.user = await deps.sessions.authenticate(bearerToken(request));
    checkRoute(request, config, await deps.workspaces.follow());
  };

  /**
   * followedWithoutChange at most once per turn of the event loop: its probe of the data folder's
   * database (PRAGMA data_version) opens a read transaction, with file locks, about 2 µs. Requests
   * are read from the network in the loop's poll phase and the first probe of a turn is taken
   * after that, so a change committed by another process before a request was sent is committed
   * before the probe its turn uses. Only "no change" is kept, until the turn's check phase
   * (setImmediate); a change takes the full path as before. Kept here, not in the probe itself:
   * the window's status timer follows too, in the timers phase, before the poll phase's requests.
   */
  let unchangedThisTurn = false;
  const endTurn = () => {
    unchangedThisTurn = false;
  };
  const workspaceWithoutChange = (): ReturnType<WorkspaceService['followedWithoutChange']> => {
    if (unchangedThisTurn) return deps.workspaces.current();
    const workspace = deps.workspaces.followedWithoutChange();
    if (workspace !== MUST_FOLLOW) {
      unchangedThisTurn = true;
      setImmediate(endTurn);
    }
    return workspace;
  };

  app.addHook('onRequest', (request, _reply, done) => {
    // CORS preflights carry no credentials by design (cors.ts answers them).
    if (request.method === 'OPTIONS') return done();
    // Read once: each read of request.routeOptions builds an object. Undefined: no route matched.
    const config = request.is404 ? undefined : request.routeOptions.config;
    if (config?.public === true) return done();
    // Another process (`pim mcp`, the CLI) may have opened another workspace, or ended sessions
    // (`pim user disable`, a logout): when the data folder's database changed, the cached sessions
    // go before the token is checked, and the full path follows the change.
    const workspace = workspaceWithoutChange();
    if (workspace === MUST_FOLLOW) deps.sessions.forgetCachedSessions();
    // Nearly every request: a token the cache knows and no change, decided without a promise.
    // Anything else (a refusal, a change) takes the full path.
    const user = config === undefined ? undefined : deps.sessions.cachedUser(bearerToken(request));
    if (user && config && workspace !== MUST_FOLLOW) {
      request.user = user;
      try {
        checkRoute(request, config, workspace);
      } catch (error) {
        return done(error as Error);
      }
      return done();
    }
    checkSlowly(request, config).then(() => done(), done);
  });
}
