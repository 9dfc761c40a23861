import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Id, IdParams } from '../../domain/common.schemas.js';
import type { RequestContext } from '../../domain/context.js';
import {
  getGroupPath,
  listGroupChildren,
  previewGroupDelete,
} from '../../domain/groups/group-browse.service.js';
import {
  AssignProductsRequest,
  CreateGroupRequest,
  DeleteGroupQuery,
  GroupLangQuery,
  MoveGroupRequest,
  RenameGroupRequest,
} from '../../domain/groups/group.schemas.js';
import {
  assignProducts,
  createGroup,
  deleteGroup,
  listGroups,
  moveGroup,
  renameGroup,
} from '../../domain/groups/group.service.js';
import type { CreateGroupInput, MoveGroupInput, RenameGroupInput } from '../../domain/groups/group.types.js';
import { normalizeLanguage } from '../../domain/languages/language.js';
import { ok, okEmpty } from '../../http/envelope.js';
import type { GroupChildrenDto, GroupListDto, GroupPathDto } from '../group-tree-api.types.js';
import { windowContext } from '../window-context.js';
import type { WindowDeps } from '../window-deps.js';

const ChildrenQuery = Type.Object(
  { parentId: Type.Optional(Id), lang: GroupLangQuery.properties.lang },
  { additionalProperties: false },
);

type WithId = { Params: { id: number } };
type LangQuery = { Querystring: { lang?: string } };

/** The window's context with the names' language of `?lang=` (the window shows the user's choice). */
function contextWithLang(request: FastifyRequest, deps: WindowDeps): RequestContext {
  const lang = (request.query as { lang?: string } | undefined)?.lang;
  return {
    ...windowContext(request, deps),
    language: lang === undefined ? undefined : normalizeLanguage(lang, 'lang'),
  };
}

/**
 * The group tree of the catalogue view: one level at a time, the way down to a group, and the
 * group writes, over the same services as REST's /api/group (which check the rights).
 */
export function groupTreeRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get<{ Querystring: { parentId?: number; lang?: string } }>(
    '/ui/api/groups/children',
    { schema: { querystring: ChildrenQuery } },
    async (request) => {
      const groups = await listGroupChildren(contextWithLang(request, deps), request.query.parentId ?? null);
      return ok<GroupChildrenDto>({ groups });
    },
  );

  // Every group at once, for picking a target by name (Move to…); the tree itself reads by level.
  app.get<LangQuery>('/ui/api/groups', { schema: { querystring: GroupLangQuery } }, async (request) =>
    ok<GroupListDto>({ groups: await listGroups(contextWithLang(request, deps)) }),
  );

  app.get<WithId & LangQuery>(
    '/ui/api/groups/:id/path',
    { schema: { params: IdParams, querystring: GroupLangQuery } },
    async (request) =>
      ok<GroupPathDto>({ path: await getGroupPath(contextWithLang(request, deps), request.params.id) }),
  );

  app.get<WithId & LangQuery>(
    '/ui/api/groups/:id/delete-preview',
    { schema: { params: IdParams, querystring: GroupLangQuery } },
    async (request) => ok(await previewGroupDelete(contextWithLang(request, deps), request.params.id)),
  );

  app.post<{ Body: CreateGroupInput }>(
    '/ui/api/groups',
    { schema: { body: CreateGroupRequest } },
    async (request, reply) =>
      reply.code(201).send(ok(await createGroup(windowContext(request, deps), request.body))),
  );

  app.patch<WithId & { Body: RenameGroupInput }>(
    '/ui/api/groups/:id',
    { schema: { params: IdParams, body: RenameGroupRequest } },
    async (request) => ok(await renameGroup(windowContext(request, deps), request.params.id, request.body)),
  );

  app.post<WithId & { Body: MoveGroupInput }>(
    '/ui/api/groups/:id/move',
    { schema: { params: IdParams, body: MoveGroupRequest } },
    async (request) => ok(await moveGroup(windowContext(request, deps), request.params.id, request.body)),
  );

  app.delete<WithId & { Querystring: { deleteProducts?: boolean } }>(
    '/ui/api/groups/:id',
    { schema: { params: IdParams, querystring: DeleteGroupQuery } },
    async (request) => {
      await deleteGroup(windowContext(request, deps), request.params.id, {
        deleteProducts: request.query.deleteProducts === true,
      });
      return okEmpty();
    },
  );

  app.post<WithId & { Body: { productIds: number[] } }>(
    '/ui/api/groups/:id/products',
    { schema: { params: IdParams, body: AssignProductsRequest } },
    async (request) =>
      ok(await assignProducts(windowContext(request, deps), request.params.id, request.body.productIds)),
  );
}
