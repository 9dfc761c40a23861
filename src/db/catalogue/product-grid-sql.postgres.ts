import { sql } from 'kysely';
import type { ProductGridSql } from './catalogue-sql.js';

/** The key is kept COLLATE "C": by code point, as on SQLite, whatever the database's collation. */
export const productGridPostgres: ProductGridSql = {
  // The stored column (migration 0012), so that the index on it answers alone.
  shortTextKey(alias) {
    return sql<string>`${sql.ref(`${alias}.name_key`)}`;
  },
  // NOT LIKE on the column itself, not a function of it: the planner estimates the share of
  // products lacking the language from the column's few common values (strpos(…) = 0 was taken
  // for 0.5 % of them); walkingIndexes keeps a wrong estimate from mattering where no filter is set.
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
  // Without a filter both arms are index walks in the order, never slower than reading and sorting
  // the rows; but an estimate of the share lacking the language that is off (statistics older
  // than a mass change, or a language every product lacks) made the planner sort instead: a jump
  // 113-195 ms right after 10,000 names were deleted, 161 ms where every product lacks it.
  // enable_sort off for these statements only (SET LOCAL, in a transaction of their own); inside
  // a caller's transaction the setting would outlive them, so they run as they are there.
  walkingIndexes(db, work) {
    if (db.isTransaction) return work(db);
    return db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      return work(trx);
    });
  },
};
