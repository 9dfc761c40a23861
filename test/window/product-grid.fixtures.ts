/** The product grid tests' model of a product and the orders expected of the grid, computed here. */

export interface Model {
  id: number;
  supplierPid: string;
  texts: Record<string, string>;
  groupId: number | null;
  masterId: number | null;
  features: string[];
  updatedAt: string;
}

/** Code point order, as both databases compare text (JavaScript's < compares UTF-16 units). */
function cmp(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

export function nameOf(m: Model, lang: string): string {
  const langs = Object.keys(m.texts).sort(cmp);
  return m.texts[lang] ?? (langs.length ? m.texts[langs[0]!]! : '');
}

export type Sort = 'id' | 'supplierPid' | 'name' | 'updated';

function sortKey(m: Model, sort: Sort, lang: string): string | number {
  if (sort === 'supplierPid') return m.supplierPid;
  if (sort === 'updated') return m.updatedAt;
  if (sort === 'name') return [...nameOf(m, lang)].slice(0, 200).join('');
  return m.id;
}

export function expectOrder(models: Model[], sort: Sort, desc: boolean, lang: string): number[] {
  const sorted = [...models].sort((a, b) => {
    const ka = sortKey(a, sort, lang);
    const kb = sortKey(b, sort, lang);
    const c = typeof ka === 'number' ? ka - (kb as number) : cmp(ka, kb as string) || a.id - b.id;
    return desc ? -c : c;
  });
  return sorted.map((m) => m.id);
}
