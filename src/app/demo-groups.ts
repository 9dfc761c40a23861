import type { RequestContext } from '../domain/context.js';
import { assignProducts, createGroup, renameGroup } from '../domain/groups/group.service.js';
import { listProducts } from '../domain/products/product.service.js';

interface DemoGroup {
  deu: string;
  eng: string;
  children?: DemoGroup[];
}

/** A small hardware catalogue: three root groups, two levels, ten groups in all. */
const DEMO_TREE: DemoGroup[] = [
  {
    deu: 'Werkzeuge',
    eng: 'Tools',
    children: [
      { deu: 'Elektrowerkzeuge', eng: 'Power tools' },
      { deu: 'Handwerkzeuge', eng: 'Hand tools' },
      { deu: 'Messwerkzeuge', eng: 'Measuring tools' },
    ],
  },
  {
    deu: 'Befestigungstechnik',
    eng: 'Fastening',
    children: [
      { deu: 'Schrauben', eng: 'Screws' },
      { deu: 'Dübel', eng: 'Wall plugs' },
    ],
  },
  {
    deu: 'Arbeitsschutz',
    eng: 'Safety equipment',
    children: [
      { deu: 'Schutzhandschuhe', eng: 'Safety gloves' },
      { deu: 'Schutzbrillen', eng: 'Safety glasses' },
    ],
  },
];

/**
 * Builds the demo group tree (names in German and English) through the group service
 * and spreads the workspace's main products over the leaf groups in turn, in id order.
 * Variants stay without a group. Returns the number of groups created.
 */
export async function seedDemoGroups(ctx: RequestContext): Promise<number> {
  const leaves: number[] = [];
  let count = 0;
  async function build(nodes: DemoGroup[], parentId: number | null): Promise<void> {
    for (const node of nodes) {
      const group = await createGroup(ctx, { name: node.deu, language: 'deu', parentId });
      await renameGroup(ctx, group.id, { name: node.eng, language: 'eng' });
      count += 1;
      if (node.children?.length) await build(node.children, group.id);
      else leaves.push(group.id);
    }
  }
  await build(DEMO_TREE, null);

  const products = await listProducts(ctx);
  const byLeaf = new Map<number, number[]>(leaves.map((id) => [id, []]));
  products.forEach((product, index) => byLeaf.get(leaves[index % leaves.length] as number)?.push(product.id));
  for (const [groupId, productIds] of byLeaf) {
    if (productIds.length > 0) await assignProducts(ctx, groupId, productIds);
  }
  return count;
}
