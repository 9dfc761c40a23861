import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import { OpenWorkspaceWindowRequest } from '../window.schemas.js';
import { windowContext } from '../window-context.js';
import { workspaceDatabaseUnreachable } from '../../domain/workspaces/workspace.service.js';

/** The status bar's facts, and File › Open workspace. */
export function workspaceRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get('/ui/api/status', async () => ok(await events.status()));

  app.get('/ui/api/workspaces', async (request) =>
    ok(await deps.workspaces.list(windowContext(request, deps))),
  );

  app.post<{ Body: { workspaceId: number } }>(
    '/ui/api/workspaces/open',
    // As REST's open (400 WORKSPACE_DATABASE_UNREACHABLE), also when the session's check meets the outage.
    { schema: { body: OpenWorkspaceWindowRequest }, config: { unreachable: workspaceDatabaseUnreachable } },
    async (request) => ok(await deps.workspaces.open(windowContext(request, deps), request.body)),
  );
}
