import type Database from 'better-sqlite3';
import { LANGUAGES } from '../config.js';
import { GROUP_WORDS } from './words.js';

export interface GeneratedGroups {
  /** Database ids of the groups on the deepest level, where products go. */
  leafIds: number[];
  count: number;
  depth: number;
}

/** Groups per level of a 4-level tree of `total` groups: about 0.2 %, 2 %, 20 %, the rest. */
export function levelCounts(total: number): number[] {
  const l1 = Math.max(1, Math.round(total * 0.002));
  const l2 = Math.max(l1, Math.round(total * 0.02));
  const l3 = Math.max(l2, Math.round(total * 0.2));
  const l4 = total - l1 - l2 - l3;
  if (l4 < l3) throw new Error(`${total} groups are too few for a 4-level tree`);
  return [l1, l2, l3, l4];
}

interface Node {
  id: number;
  parentId: number | null;
  bmecatId: string;
  childCount: number;
}

/**
 * Fills product_group and product_group_name level by level. Node j of a level hangs
 * under node j mod (size of the level above), so every level is spread evenly. Children
 * are numbered in order of creation (2.1, 2.2, ...); next_child_seq and the meta key
 * next_root_group_seq continue after the last number given, as the service would.
 */
export function insertGroups(db: Database.Database, total: number, timestamp: string): GeneratedGroups {
  const counts = levelCounts(total);
  const insertGroup = db.prepare(
    `INSERT INTO product_group (id, parent_id, bmecat_id, next_child_seq, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertName = db.prepare('INSERT INTO product_group_name (group_id, lang, name) VALUES (?, ?, ?)');
  const levels: Node[][] = [];
  let nextId = 1;
  for (const [level, count] of counts.entries()) {
    const above = levels[level - 1];
    const nodes: Node[] = [];
    for (let j = 0; j < count; j++) {
      const parent = above ? above[j % above.length]! : undefined;
      const seq = parent ? ++parent.childCount : j + 1;
      const bmecatId = parent ? `${parent.bmecatId}.${seq}` : String(seq);
      nodes.push({ id: nextId++, parentId: parent?.id ?? null, bmecatId, childCount: 0 });
    }
    levels.push(nodes);
  }
  db.transaction(() => {
    for (const node of levels.flat()) {
      insertGroup.run(node.id, node.parentId, node.bmecatId, node.childCount + 1, timestamp, timestamp);
      for (const lang of LANGUAGES) {
        const words = GROUP_WORDS[lang];
        insertName.run(node.id, lang, `${words[node.id % words.length]} ${node.bmecatId}`);
      }
    }
    db.prepare("UPDATE meta SET value = ? WHERE key = 'next_root_group_seq'").run(String(counts[0]! + 1));
  })();
  return { leafIds: levels[3]!.map((n) => n.id), count: total, depth: levels.length };
}
