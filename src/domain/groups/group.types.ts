/**
 * The shapes the group service returns and accepts. The HTTP schemas in
 * src/http/schemas/group.schemas.ts describe the same shapes in TypeBox and are
 * checked against these types at compile time, so the two cannot drift.
 */

/** One product group, as GET /api/group and the write operations return it. */
export interface ProductGroupDto {
  /** Database key, used in URLs. */
  id: number;
  /** Hierarchical BMEcat id (1, 2, 2.1, ...), informational only. */
  groupId: string;
  /** Name in the language asked for, else the workspace default, else the first by language code, else "". */
  name: string;
  /** Database key of the parent group; null for a root-level group. */
  parentGroupId: number | null;
  /** Number of direct child groups. */
  childGroupCount: number;
  /** Number of products (main products and variants) directly in the group. */
  productCount: number;
  /** ISO 8601 UTC. */
  createdAt: string;
  /** ISO 8601 UTC; touched when the group's name, parent or groupId changes. */
  updatedAt: string;
}

/** A node of GET /api/group/tree. The root node (id 0, groupId "0") stands for the workspace. */
export interface ProductGroupNodeDto {
  id: number;
  groupId: string;
  name: string;
  productCount: number;
  children: ProductGroupNodeDto[];
}

export interface CreateGroupInput {
  name: string;
  /** Language of `name`; default: the workspace's default language. */
  language?: string;
  /** Parent group; absent or null: root level. */
  parentId?: number | null;
}

export interface RenameGroupInput {
  name: string;
  language?: string;
}

export interface MoveGroupInput {
  /** New parent group; null: root level. */
  parentId: number | null;
}

export interface DeleteGroupOptions {
  /** true: the products of the deleted groups are deleted too (with their variants); default: ungrouped. */
  deleteProducts?: boolean;
}

/** Limits of a group name (characters). */
export const GROUP_NAME_MIN = 1;
export const GROUP_NAME_MAX = 256;

/**
 * Levels of the group tree at most. Real catalogue structures (BMEcat, ECLASS-like trees) have
 * fewer than ten; the bound keeps hierarchical groupIds short and the tree's answer, built
 * recursively by JSON serialisers, far from the stack's limit (a chain of 3,000 levels made
 * the tree answer 500).
 */
export const GROUP_DEPTH_MAX = 100;

/** Products assigned in one request: a page of a large group, never an unbounded body. */
export const ASSIGN_PRODUCTS_MAX = 10_000;
