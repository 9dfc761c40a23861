import { sql } from 'kysely';
import { featureLanguagesPostgres } from './feature-language-sql.js';
import { bulkSqlPostgres } from './bulk-sql.postgres.js';
import { productGridPostgres } from './product-grid-sql.postgres.js';
import { productListPostgres } from './product-list-sql.postgres.js';
import type { CatalogueSql } from './catalogue-sql.js';
import { countChangesPostgres } from './change-counter-sql.js';
import { changeCounterPostgres, changeStatePostgres } from './change-counter-sql.postgres.js';
import { postgresIdList, postgresTextList } from './id-list.js';
import { lockProductPostgres, lockProductsPostgres } from './product-lock-sql.js';
import { productSqlPostgres } from './product-sql.postgres.js';
import { sheetSqlPostgres } from './sheet-sql.postgres.js';

/** PostgreSQL's catalogue SQL: transactions run side by side, so reads that writes rely on lock. */
export const catalogueSqlPostgres: CatalogueSql = {
  product: productSqlPostgres,
  bulk: bulkSqlPostgres,
  sheet: sheetSqlPostgres,
  list: productListPostgres,
  grid: productGridPostgres,
  idList: postgresIdList,
  textList: postgresTextList,
  // Keeps a row read for a foreign key (a group) from being deleted before the commit.
  keyShare: sql`FOR KEY SHARE`,
  forUpdate: sql`FOR UPDATE`,
  /**
   * Changes to the shape of the tree (create, move, delete) read the tree, then write numbers and
   * parent links that must agree with what they read: a table lock that readers and the
   * foreign-key checks of product assignments pass (SHARE ROW EXCLUSIVE conflicts with writers).
   */
  async lockTree(db) {
    await sql`LOCK TABLE product_group IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  },
  // `= ANY(array)`, not `IN (SELECT unnest(...))`: see product-lock-sql.ts.
  async lockGroupRows(db, ids) {
    await sql`SELECT id FROM product_group WHERE id = ANY(CAST(${[...ids]} AS integer[]))
      ORDER BY id FOR UPDATE`.execute(db);
  },
  lockProducts: lockProductsPostgres,
  lockProduct: lockProductPostgres,
  changeState: changeStatePostgres,
  changeCounter: changeCounterPostgres,
  featureLanguages: featureLanguagesPostgres,
  countChanges: countChangesPostgres,
  writeTransaction: (db, work) => db.transaction().execute(work),
};
