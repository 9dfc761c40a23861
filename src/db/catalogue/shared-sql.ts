import { sql } from 'kysely';

/**
 * SQL fragments both dialects write alike, used by their JSON builders and by the domain's
 * repositories.
 */

/**
 * ProductDto.variantCount of the product aliased `p`: stored on the row (migration 0013, kept by
 * triggers), no seek into the variants' index per product. 0 for a variant, as always.
 */
export const variantCountSql = sql<number>`CASE WHEN p.master_id IS NULL THEN p.variant_count ELSE 0 END`;

/**
 * The name of the group aliased `g` (ProductGroupDto.name's rules): `preferred`, else `fallback`,
 * else the first by language code, else "". Three index seeks on product_group_name's key: an
 * ORDER BY on the languages' rank sorted every group's names (a sorter set up per group: the
 * product sheet's group part 16 → 9 µs alone on the benchmark catalogue).
 */
export function groupNameSql(preferred: string, fallback: string) {
  return sql<string>`COALESCE(
      (SELECT n.name FROM product_group_name n WHERE n.group_id = g.id AND n.lang = ${preferred}),
      (SELECT n.name FROM product_group_name n WHERE n.group_id = g.id AND n.lang = ${fallback}),
      (SELECT n.name FROM product_group_name n WHERE n.group_id = g.id ORDER BY n.lang LIMIT 1), '')`;
}
