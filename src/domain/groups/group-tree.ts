import type { TreeRow } from './group.repository.js';
import type { ProductGroupNodeDto } from './group.types.js';

/**
 * Assembles the tree of GET /api/group/tree in memory from flat rows (ordered by id),
 * without recursion, so neither the number of groups nor the depth of the tree costs
 * queries or stack. Children appear in order of id, as every list does.
 */
export function assembleTree(
  root: { name: string; ungroupedProducts: number },
  rows: readonly TreeRow[],
): ProductGroupNodeDto {
  const top: ProductGroupNodeDto = {
    id: 0,
    groupId: '0',
    name: root.name,
    productCount: root.ungroupedProducts,
    children: [],
  };
  const nodes = new Map<number, ProductGroupNodeDto>();
  for (const row of rows) {
    nodes.set(row.id, {
      id: row.id,
      groupId: row.bmecat_id,
      name: row.name,
      productCount: Number(row.product_count),
      children: [],
    });
  }
  for (const row of rows) {
    const node = nodes.get(row.id) as ProductGroupNodeDto;
    const parent = row.parent_id === null ? top : nodes.get(row.parent_id);
    // A parent that is missing cannot occur (foreign key); such a node would be unreachable, not misplaced.
    parent?.children.push(node);
  }
  return top;
}
