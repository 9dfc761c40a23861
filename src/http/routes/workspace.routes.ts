import { Type } from '@sinclair/typebox';
import { RIGHTS } from '../../domain/users/roles.js';
import { ok } from '../envelope.js';
import { requestContext } from '../request-context.js';
import type { HttpDeps } from '../http-deps.js';
import type { PimApp } from '../pim-app.js';
import { Envelope, errorResponses } from '../response.schemas.js';
import { OpenWorkspaceRequest, WorkspaceDto } from '../../domain/workspaces/workspace.schemas.js';
import { workspaceDatabaseUnreachable } from '../../domain/workspaces/workspace.service.js';
import { NoQuery } from '../../domain/common.schemas.js';

export function workspaceRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/workspace',
    {
      config: { right: RIGHTS.read },
      schema: {
        operationId: 'listWorkspaces',
        tags: ['workspace'],
        summary: 'All known workspaces',
        querystring: NoQuery,
        response: { 200: Envelope(Type.Array(WorkspaceDto)), ...errorResponses(400, 401, 403, 500) },
      },
    },
    async (request) => ok(await deps.workspaces.list(requestContext(request, deps))),
  );

  app.post(
    '/api/workspace/open',
    {
      config: { right: RIGHTS.workspaces, unreachable: workspaceDatabaseUnreachable },
      schema: {
        operationId: 'openWorkspace',
        tags: ['workspace'],
        summary: 'Open a workspace for everybody (the application has one open workspace)',
        description:
          '404 for an unknown id or name; 400 when the folder or database is missing or cannot be reached ' +
          '(the open workspace stays open), when the workspace is already loaded, or when workspaceId and ' +
          'workspaceName name different workspaces.',
        querystring: NoQuery,
        body: OpenWorkspaceRequest,
        response: { 200: Envelope(WorkspaceDto), ...errorResponses(400, 401, 403, 404, 413, 415, 500) },
      },
    },
    async (request) => ok(await deps.workspaces.open(requestContext(request, deps), request.body)),
  );
}
