import { sql } from 'kysely';
import type { ProductGridSql } from './catalogue-sql.js';

/** The key is kept COLLATE "C": by code point, as on SQLite, whatever the database's collation. */
export const productGridPostgres: ProductGridSql = {
  // The stored column (migration 0012), so that the index on it answers alone.
  shortTextKey(alias) {
    return sql<string>`${sql.ref(`${alias}.name_key`)}`;
  },
  // NOT LIKE on the column itself, not a function of it: the planner then estimates the share of
  // products lacking the language from the column's few common values (strpos(…) = 0 was taken for
  // 0.5 % of them, and a jump where every product lacks it sorted all of them: 161 ms instead of 60).
  lacksLanguage(languages, lang) {
    const literal = lang.replace(/[\\%_]/g, '\\$&');
    return sql<boolean>`${languages} NOT LIKE ${`%,${literal},%`} ESCAPE '\\'`;
  },
  // Each arm a subquery with its own ORDER BY and LIMIT: the planner then merges the two index
  // walks (Merge Append) and stops. In a flat UNION ALL the arm on product_text lost the index's
  // order (its `lang = …` is not taken as a constant in a UNION ALL member), and the planner read
  // every name of the language and sorted them (first rows 100-270 ms instead of 1-8).
  mergeArms(named, fallback, arm) {
    return sql`SELECT id, k FROM (${named} ${arm}) named
      UNION ALL SELECT id, k FROM (${fallback} ${arm}) fallback`;
  },
};
