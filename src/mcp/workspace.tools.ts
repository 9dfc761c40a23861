import { Type } from '@sinclair/typebox';
import { OpenWorkspaceRequest, WorkspaceDto } from '../domain/workspaces/workspace.schemas.js';
import { RIGHTS } from '../domain/users/roles.js';
import { workspaceDatabaseUnreachable } from '../domain/workspaces/workspace.service.js';
import { defineTool } from './tool.js';

export const workspaceTools = [
  defineTool({
    name: 'list_workspaces',
    title: 'List workspaces',
    description:
      'All workspaces (catalogues) of this pim with id, name, folder and whether it is the open one. Every ' +
      'catalogue tool works on the open workspace.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ workspaces: Type.Array(WorkspaceDto) }, { additionalProperties: false }),
    effect: 'read',
    right: RIGHTS.read,
    workspace: false,
    run: async (ctx, _args, deps) => ({ workspaces: await deps.workspaces.list(ctx) }),
  }),
  defineTool({
    name: 'open_workspace',
    title: 'Open a workspace',
    description:
      'Opens a workspace by workspaceId or workspaceName for the whole application: REST clients, the window ' +
      'and other agents then work on it too. Fails when it is already open. Returns the WorkspaceDto.',
    input: OpenWorkspaceRequest,
    output: WorkspaceDto,
    effect: 'write',
    right: RIGHTS.workspaces,
    workspace: false,
    unreachable: workspaceDatabaseUnreachable,
    run: (ctx, input, deps) => deps.workspaces.open(ctx, input),
  }),
];
