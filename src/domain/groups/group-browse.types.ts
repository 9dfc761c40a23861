/**
 * What a tree that opens level by level reads of the groups: one node's children, the way down to
 * a group, and what deleting a group would do. Plain shapes without imports, so the window's front
 * end can import them as they are (src/window/group-tree-api.types.ts).
 */

/** A group as one level of the tree shows it. */
export interface GroupNode {
  id: number;
  /** Name as ProductGroupDto.name: the language asked for, the workspace default, the first by code, "". */
  name: string;
  /** null for a root-level group. */
  parentId: number | null;
  /** Direct subgroups (ProductGroupDto.childGroupCount). */
  childCount: number;
  /** Products directly in the group, main products and variants alike (ProductGroupDto.productCount). */
  productCount: number;
}

/** One step of the way from the root level down to a group. */
export interface GroupPathEntry {
  id: number;
  name: string;
}

/**
 * What DELETE of a group does (group.service.ts deleteGroup): the group goes with its whole subtree;
 * the products of those groups are ungrouped, or with deleteProducts deleted, and then the variants
 * of deleted main products go with them wherever those variants are grouped.
 */
export interface GroupDeletePreview {
  id: number;
  name: string;
  /** Groups below it, at every level, deleted with it. */
  subgroupCount: number;
  /** Products in the group and its subgroups: ungrouped, or deleted with deleteProducts. */
  productCount: number;
  /** Variants outside the subtree whose main product is in it: deleted too with deleteProducts. */
  otherVariantCount: number;
}
