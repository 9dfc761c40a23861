import { Type } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';

export const WorkspaceDto = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    rootpath: Type.String({ description: 'Folder of the workspace' }),
    active: Type.Boolean({ description: 'True for the currently open workspace' }),
    changeCounter: Nullable(
      Type.Integer({
        minimum: 0,
        description:
          "The open workspace's change counter (null for the others): it rises with every committed change " +
          'to the catalogue, by any client, process or instance, and never without one. A poller compares it ' +
          'with the value it saw last to learn with one cheap request whether anything changed. Additive to the spec.',
      }),
    ),
    changedAt: Nullable(
      Type.String({
        format: 'date-time',
        description:
          "The open workspace's newest updatedAt or deletedAt committed (null for the others, and before the first " +
          'change); in team mode, while other writes are committing, at most the stamp before theirs. Every change ' +
          'committed after this value was read carries a stamp at or after it, also with several writers in team ' +
          'mode. A delta sync stores it before it reads and passes it ' +
          'next time as updatedSince and as since of /api/product/deleted. Additive to the spec.',
      }),
    ),
  },
  { title: 'WorkspaceDto', additionalProperties: false },
);

export const OpenWorkspaceRequest = Type.Object(
  {
    workspaceId: Type.Optional(Id),
    workspaceName: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  {
    title: 'OpenWorkspaceRequest',
    additionalProperties: false,
    description: 'One of the two identifies the workspace; if both are sent they must name the same one',
    examples: [{ workspaceName: 'Demo' }, { workspaceId: 1 }],
  },
);
