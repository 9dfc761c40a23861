import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../domain/common.schemas.js';
import { ROLES, type Role } from '../../domain/users/roles.js';
import { ok, okEmpty } from '../../http/envelope.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';

// An enum, not a union of literals: a union's first error names only its first value
// ('role must be "ADMIN"'); an enum's names them all, as REST's validation messages do.
const RoleSchema = Type.Unsafe<Role>({ type: 'string', enum: [...ROLES] });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
// No length limit on the name here: the user service trims it first and then checks its rules
// (length included); a limit here would count the spaces it trims. The body limit bounds it.
const AddUserRequest = Type.Object(
  { username: Type.String({ minLength: 1 }), role: RoleSchema, password: Password },
  { additionalProperties: false },
);
const RoleRequest = Type.Object({ role: RoleSchema }, { additionalProperties: false });
const PasswordRequest = Type.Object({ password: Password }, { additionalProperties: false });

type WithId = { Params: { id: number } };

/** Users (right Benutzerverwaltung, checked by the services): the same operations as `pim user`. */
export function usersRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get('/ui/api/users', async (request) => ok(await deps.users.list(windowContext(request, deps))));

  app.post<{ Body: { username: string; role: Role; password: string } }>(
    '/ui/api/users',
    { schema: { body: AddUserRequest } },
    async (request, reply) =>
      reply.code(201).send(ok(await deps.users.add(windowContext(request, deps), request.body))),
  );

  app.put<WithId & { Body: { role: Role } }>(
    '/ui/api/users/:id/role',
    { schema: { params: IdParams, body: RoleRequest } },
    async (request) => {
      await deps.users.setRole(windowContext(request, deps), request.params.id, request.body.role);
      return okEmpty();
    },
  );

  app.put<WithId & { Body: { password: string } }>(
    '/ui/api/users/:id/password',
    { schema: { params: IdParams, body: PasswordRequest } },
    async (request) => {
      await deps.users.setPassword(windowContext(request, deps), request.params.id, request.body.password);
      return okEmpty();
    },
  );

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post<WithId>(`/ui/api/users/:id/${action}`, { schema: { params: IdParams } }, async (request) => {
      await deps.users.setDisabled(windowContext(request, deps), request.params.id, disabled);
      return okEmpty();
    });
  }

  app.post<WithId>('/ui/api/users/:id/logout', { schema: { params: IdParams } }, async (request) => {
    await deps.sessions.endSessionsOf(windowContext(request, deps), request.params.id);
    return okEmpty();
  });
}
