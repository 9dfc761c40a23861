/**
 * The JSON of the window's group-tree endpoints (src/window/routes/group-tree.routes.ts), which the
 * front end imports: the domain's own shapes, so there is one definition of each.
 */
import type { GroupDeletePreview, GroupNode, GroupPathEntry } from '../domain/groups/group-browse.types.js';
import type { ProductGroupDto } from '../domain/groups/group.types.js';

export type { GroupDeletePreview, GroupNode, GroupPathEntry, ProductGroupDto };

/** GET /ui/api/groups/children?parentId= (absent: the root level). */
export interface GroupChildrenDto {
  groups: GroupNode[];
}

/** GET /ui/api/groups/:id/path: from the root level down to the group itself. */
export interface GroupPathDto {
  path: GroupPathEntry[];
}

/** GET /ui/api/groups: every group, flat, ordered by id. */
export interface GroupListDto {
  groups: ProductGroupDto[];
}
