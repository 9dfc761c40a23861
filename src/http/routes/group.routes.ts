import { Type } from '@sinclair/typebox';
import * as groups from '../../domain/groups/group.service.js';
import { CATALOGUE_EDIT } from '../route-access.js';
import { VERSIONED_CATALOGUE_READ } from '../conditional.js';
import type { PimApp } from '../pim-app.js';
import { ok, okEmpty } from '../envelope.js';
import type { HttpDeps } from '../http-deps.js';
import { Created, EmptyEnvelope, Envelope, errorResponses } from '../response.schemas.js';
import { IdParams, NoQuery } from '../../domain/common.schemas.js';
import {
  AssignProductsRequest,
  CreateGroupRequest,
  DeleteGroupQuery,
  GroupLangQuery,
  GroupProductParams,
  MoveGroupRequest,
  ProductGroupDto,
  ProductGroupNodeDto,
  RenameGroupRequest,
} from '../../domain/groups/group.schemas.js';
import { ProductDto } from '../../domain/products/product.schemas.js';
import { requestContext } from '../request-context.js';
import { GROUP_DEPTH_MAX } from '../../domain/groups/group.types.js';

const tags = ['group'];
const NAME_RULE =
  'The name in the response is in `language` of the request body, else `?lang=`, else the workspace default ' +
  'language, else the first name by language code, else "".';
const MEMBERSHIP_RULE =
  'Every change of membership touches updatedAt of the products concerned and, for a variant, of its main product.';

/** The product-group endpoints of the spec, with the answers of decisions.md. */
export function groupRoutes(app: PimApp, deps: HttpDeps): void {
  app.get(
    '/api/group',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listGroups',
        tags,
        summary: 'All product groups, flat',
        description: `Every group of the open workspace as ProductGroupDto, ordered by id. ${NAME_RULE}`,
        querystring: GroupLangQuery,
        response: { 200: Envelope(Type.Array(ProductGroupDto)), ...errorResponses(400, 401, 403, 409, 500) },
      },
    },
    async (request) => ok(await groups.listGroups(requestContext(request, deps))),
  );

  app.get(
    '/api/group/tree',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'getGroupTree',
        tags,
        summary: 'The complete group tree',
        description:
          'One root node standing for the workspace: id 0, groupId "0", name the workspace name, productCount ' +
          'the products without a group, children the root-level groups; each node carries its products ' +
          'directly in the group and its child groups ordered by id. Answered with a constant number of queries.',
        querystring: GroupLangQuery,
        response: { 200: Envelope(ProductGroupNodeDto), ...errorResponses(400, 401, 403, 409, 500) },
      },
    },
    async (request) => ok(await groups.getGroupTree(requestContext(request, deps))),
  );

  app.get(
    '/api/group/:id',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'getGroup',
        tags,
        summary: 'One product group',
        description: `404 for an unknown group. ${NAME_RULE}`,
        params: IdParams,
        querystring: GroupLangQuery,
        response: { 200: Envelope(ProductGroupDto), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => ok(await groups.getGroup(requestContext(request, deps), request.params.id)),
  );

  app.post(
    '/api/group',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'createGroup',
        tags,
        summary: 'Create a product group',
        description:
          'At root level without `parentId` (or with null), else under that group (404 if unknown). The name is ' +
          "stored in `language` (default: the workspace's default language). groupId is the next free number " +
          'under the parent (root level: 1, 2, 3 in order of creation; children of 2: 2.1, 2.2); numbers are ' +
          `never reused. The tree has at most ${GROUP_DEPTH_MAX} levels (deeper: 400 GROUP_TREE_TOO_DEEP). ` +
          'Answers 201 with a Location header and the new ProductGroupDto.',
        body: CreateGroupRequest,
        querystring: GroupLangQuery,
        response: {
          201: Created(ProductGroupDto),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request, reply) => {
      const group = await groups.createGroup(requestContext(request, deps), request.body);
      return reply.code(201).header('Location', `/api/group/${group.id}`).send(ok(group));
    },
  );

  app.put(
    '/api/group/:id',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'renameGroup',
        tags,
        summary: 'Rename a product group',
        description:
          "`name` is required (400 without). It is set in `language` (default: the workspace's default " +
          'language); names in other languages stay. Returns the ProductGroupDto.',
        params: IdParams,
        body: RenameGroupRequest,
        querystring: GroupLangQuery,
        response: {
          200: Envelope(ProductGroupDto),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request) =>
      ok(await groups.renameGroup(requestContext(request, deps), request.params.id, request.body)),
  );

  app.delete(
    '/api/group/:id',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'deleteGroup',
        tags,
        summary: 'Delete a product group with its whole subtree',
        description:
          'Deletes the group and all its descendants. Their products are ungrouped, or with ' +
          '`deleteProducts=true` deleted together with their variants. The groupIds of the deleted groups are ' +
          `not reused and no other group is renumbered. ${MEMBERSHIP_RULE}`,
        params: IdParams,
        querystring: DeleteGroupQuery,
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => {
      await groups.deleteGroup(requestContext(request, deps), request.params.id, {
        deleteProducts: request.query.deleteProducts ?? false,
      });
      return okEmpty();
    },
  );

  app.post(
    '/api/group/:id/move',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'moveGroup',
        tags,
        summary: 'Move a product group in the tree',
        description:
          '`parentId` null moves the group to the root level. The group and its subtree are renumbered under the ' +
          "new parent with the parent's next free number (the subtree keeps its relative numbering). Moving under " +
          'the group itself or one of its descendants: 400, nothing changes. Moving to the parent it already has: ' +
          `200, nothing changes. A move that would make the tree deeper than ${GROUP_DEPTH_MAX} levels: 400 ` +
          '(GROUP_TREE_TOO_DEEP), nothing changes. Returns the ProductGroupDto.',
        params: IdParams,
        body: MoveGroupRequest,
        querystring: GroupLangQuery,
        response: {
          200: Envelope(ProductGroupDto),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request) =>
      ok(await groups.moveGroup(requestContext(request, deps), request.params.id, request.body)),
  );

  app.get(
    '/api/group/:id/products',
    {
      config: VERSIONED_CATALOGUE_READ,
      schema: {
        operationId: 'listGroupProducts',
        tags,
        summary: 'The products directly in a product group',
        description:
          'Main products and variants assigned to this group itself, ordered by id; products of child groups ' +
          'are not included. 404 for an unknown group.',
        params: IdParams,
        querystring: GroupLangQuery,
        response: { 200: Envelope(Type.Array(ProductDto)), ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => ok(await groups.listGroupProducts(requestContext(request, deps), request.params.id)),
  );

  app.post(
    '/api/group/:id/products',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'assignProducts',
        tags,
        summary: 'Assign products to a product group',
        description:
          'All or nothing: one unknown product id answers 404 and assigns none. A product is in one group at ' +
          `most: a product in another group is moved here. ${MEMBERSHIP_RULE} Returns the ProductGroupDto.`,
        params: IdParams,
        body: AssignProductsRequest,
        querystring: GroupLangQuery,
        response: {
          200: Envelope(ProductGroupDto),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500),
        },
      },
    },
    async (request) =>
      ok(
        await groups.assignProducts(
          requestContext(request, deps),
          request.params.id,
          request.body.productIds,
        ),
      ),
  );

  app.delete(
    '/api/group/:id/products/:productId',
    {
      config: CATALOGUE_EDIT,
      schema: {
        operationId: 'removeProductFromGroup',
        tags,
        summary: 'Remove a product from a product group',
        description:
          'The product is then without group. Unknown group or product, or a product that is not in this ' +
          `group: 404. ${MEMBERSHIP_RULE}`,
        params: GroupProductParams,
        querystring: NoQuery,
        response: { 200: EmptyEnvelope, ...errorResponses(400, 401, 403, 404, 409, 500) },
      },
    },
    async (request) => {
      await groups.removeProduct(requestContext(request, deps), request.params.id, request.params.productId);
      return okEmpty();
    },
  );
}
