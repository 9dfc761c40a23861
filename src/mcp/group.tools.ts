import { Type } from '@sinclair/typebox';
import { Id } from '../domain/common.schemas.js';
import * as groups from '../domain/groups/group.service.js';
import {
  AssignProductsRequest,
  CreateGroupRequest,
  DeleteGroupQuery,
  GroupLangQuery,
  MoveGroupRequest,
  ProductGroupDto,
  ProductGroupNodeDto,
  RenameGroupRequest,
} from '../domain/groups/group.schemas.js';
import { GROUP_DEPTH_MAX, type ProductGroupNodeDto as Node } from '../domain/groups/group.types.js';
import { RIGHTS } from '../domain/users/roles.js';
import { ProductPage, TOOL_PAGE_DEFAULT, TOOL_PAGE_MAX, productPage } from './product.tools.js';
import { defineTool } from './tool.js';

const GroupId = { ...Id, description: 'The group (database key, not the BMEcat groupId)' };

/** The tree without the levels below `depth` (0: the root node alone). */
function cut(node: Node, depth: number): Node {
  return { ...node, children: depth <= 0 ? [] : node.children.map((child) => cut(child, depth - 1)) };
}

export const groupTools = [
  defineTool({
    name: 'get_group_tree',
    title: 'Get the group tree',
    description:
      'The product-group tree of the open workspace under one root node (id 0) standing for the workspace: ' +
      'each node has id, groupId (BMEcat), name, productCount (products directly in it; at the root: products ' +
      'without a group) and children. With depth, levels below it are left out (depth 1: the root-level groups ' +
      'with empty children); a node cut there may have children.',
    input: Type.Object(
      {
        depth: Type.Optional(
          Type.Integer({ minimum: 0, maximum: 1000, description: 'Levels below the root to include' }),
        ),
        lang: GroupLangQuery.properties.lang,
      },
      { additionalProperties: false },
    ),
    output: ProductGroupNodeDto,
    effect: 'read',
    right: RIGHTS.read,
    workspace: true,
    async run(ctx, { depth }) {
      const tree = await groups.getGroupTree(ctx);
      return depth === undefined ? tree : cut(tree, depth);
    },
  }),
  defineTool({
    name: 'list_group_products',
    title: 'List the products of a group',
    description:
      'The products directly in one group (main products and variants; not those of child groups) as ' +
      'ProductDto, ordered by id, one page at a time: pass nextCursor as cursor until it is null.',
    input: Type.Object(
      {
        groupId: GroupId,
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: TOOL_PAGE_MAX,
            default: TOOL_PAGE_DEFAULT,
            description: 'Page size',
          }),
        ),
        cursor: Type.Optional(Type.String({ maxLength: 64, description: 'nextCursor of the previous page' })),
        lang: GroupLangQuery.properties.lang,
      },
      { additionalProperties: false },
    ),
    output: ProductPage,
    effect: 'read',
    right: RIGHTS.read,
    workspace: true,
    run: (ctx, { groupId, limit, cursor }) =>
      productPage(ctx, { groupId, all: true, limit: limit ?? TOOL_PAGE_DEFAULT, cursor }),
  }),
  defineTool({
    name: 'create_group',
    title: 'Create a group',
    description:
      "Creates a product group at the root level or under parentId, named in language (default: the workspace's " +
      `default language). Its groupId is the next free BMEcat number under the parent. The tree has at most ` +
      `${GROUP_DEPTH_MAX} levels. Returns the ProductGroupDto.`,
    input: CreateGroupRequest,
    output: ProductGroupDto,
    effect: 'write',
    right: RIGHTS.edit,
    workspace: true,
    successStatus: 201,
    run: (ctx, input) => groups.createGroup(ctx, input),
  }),
  defineTool({
    name: 'rename_group',
    title: 'Rename a group',
    description:
      'Sets the name of a group in one language; names in other languages stay. Returns the ProductGroupDto.',
    input: Type.Object({ id: GroupId, ...RenameGroupRequest.properties }, { additionalProperties: false }),
    output: ProductGroupDto,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, { id, ...input }) => groups.renameGroup(ctx, id, input),
  }),
  defineTool({
    name: 'move_group',
    title: 'Move a group',
    description:
      'Moves a group with its whole subtree under another group, or with parentId null to the root level. ' +
      'Under itself or its own descendant: VALIDATION error, nothing changes. groupIds of the moved subtree ' +
      `are renumbered; the tree may not grow deeper than ${GROUP_DEPTH_MAX} levels. Returns the ProductGroupDto.`,
    input: Type.Object({ id: GroupId, ...MoveGroupRequest.properties }, { additionalProperties: false }),
    output: ProductGroupDto,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, { id, parentId }) => groups.moveGroup(ctx, id, { parentId }),
  }),
  defineTool({
    name: 'delete_group',
    title: 'Delete a group',
    description:
      'Deletes a group with its whole subtree. Its products are only ungrouped, or with deleteProducts true ' +
      'deleted too, with their variants. Cannot be undone.',
    input: Type.Object({ id: GroupId, ...DeleteGroupQuery.properties }, { additionalProperties: false }),
    output: Type.Object(
      { deletedId: Type.Integer(), deleteProducts: Type.Boolean() },
      { additionalProperties: false },
    ),
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { id, deleteProducts }) {
      await groups.deleteGroup(ctx, id, { deleteProducts });
      return { deletedId: id, deleteProducts: deleteProducts ?? false };
    },
  }),
  defineTool({
    name: 'assign_products',
    title: 'Put products into a group',
    description:
      'Puts products into a group, all or nothing: one unknown product id is NOT_FOUND and assigns none. A ' +
      'product is in one group at most, so one in another group moves here. Returns the ProductGroupDto.',
    input: Type.Object(
      { groupId: GroupId, ...AssignProductsRequest.properties },
      { additionalProperties: false },
    ),
    output: ProductGroupDto,
    effect: 'idempotent-write',
    right: RIGHTS.edit,
    workspace: true,
    run: (ctx, { groupId, productIds }) => groups.assignProducts(ctx, groupId, productIds),
  }),
  defineTool({
    name: 'unassign_product',
    title: 'Take a product out of a group',
    description:
      'Takes one product out of a group; it is then without group. NOT_FOUND when it is not in that group.',
    input: Type.Object(
      { groupId: GroupId, productId: { ...Id, description: 'The product (database id)' } },
      { additionalProperties: false },
    ),
    output: Type.Object(
      { groupId: Type.Integer(), productId: Type.Integer() },
      { additionalProperties: false },
    ),
    effect: 'delete',
    right: RIGHTS.edit,
    workspace: true,
    async run(ctx, { groupId, productId }) {
      await groups.removeProduct(ctx, groupId, productId);
      return { groupId, productId };
    },
  }),
];
