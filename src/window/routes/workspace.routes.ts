import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import { CreateWorkspaceWindowRequest, OpenWorkspaceWindowRequest } from '../window.schemas.js';
import { windowContext } from '../window-context.js';
import { workspaceDatabaseUnreachable } from '../../domain/workspaces/workspace.service.js';

/** The status bar's facts, File › Open workspace and File › New workspace. */
export function workspaceRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get('/ui/api/status', async () => ok(await events.status()));

  app.get('/ui/api/workspaces', async (request) =>
    ok(await deps.workspaces.list(windowContext(request, deps))),
  );

  // File › New workspace: created in a folder of its own under the data folder, then opened.
  app.post<{ Body: { name: string; language?: string } }>(
    '/ui/api/workspaces',
    { schema: { body: CreateWorkspaceWindowRequest } },
    async (request, reply) => {
      const ctx = windowContext(request, deps);
      const created = await deps.workspaces.create(ctx, request.body);
      await deps.workspaces.open(ctx, { workspaceId: created.id });
      return reply.code(201).send(ok(created));
    },
  );

  app.post<{ Body: { workspaceId: number } }>(
    '/ui/api/workspaces/open',
    // As REST's open (400 WORKSPACE_DATABASE_UNREACHABLE), also when the session's check meets the outage.
    { schema: { body: OpenWorkspaceWindowRequest }, config: { unreachable: workspaceDatabaseUnreachable } },
    async (request) => ok(await deps.workspaces.open(windowContext(request, deps), request.body)),
  );
}
