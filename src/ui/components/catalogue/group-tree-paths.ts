/** One level of the group tree: the top level (parentId null) or a group's children. */
export function childrenPath(parentId: number | null): string {
  return parentId === null ? '/groups/children' : `/groups/children?parentId=${parentId}`;
}
