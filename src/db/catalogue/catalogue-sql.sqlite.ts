import { sql } from 'kysely';
import { groupedWrite } from '../group-commit.js';
import { featureLanguagesSqlite } from './feature-language-sql.js';
import { bulkSqlSqlite } from './bulk-sql.sqlite.js';
import { productGridSqlite } from './product-grid-sql.sqlite.js';
import { productListSqlite } from './product-list-sql.sqlite.js';
import type { CatalogueSql } from './catalogue-sql.js';
import { changeCounterQuery, changeStateQuery, toChangeState } from './catalogue-reads.js';
import { countChangesSqlite } from './change-counter-sql.js';
import { sqliteIdList, sqliteTextList } from './id-list.js';
import { lockProductSqlite, lockProductsSqlite } from './product-lock-sql.js';
import { productSqlSqlite } from './product-sql.sqlite.js';
import { sheetSqlSqlite } from './sheet-sql.sqlite.js';

/** SQLite's catalogue SQL. One writer at a time: no row or table locks are needed. */
export const catalogueSqlSqlite: CatalogueSql = {
  product: productSqlSqlite,
  bulk: bulkSqlSqlite,
  sheet: sheetSqlSqlite,
  list: productListSqlite,
  grid: productGridSqlite,
  idList: sqliteIdList,
  textList: sqliteTextList,
  keyShare: sql``,
  forUpdate: sql``,
  lockTree: async () => undefined,
  lockGroupRows: async () => undefined,
  lockProducts: lockProductsSqlite,
  lockProduct: lockProductSqlite,
  changeState: async (db) => toChangeState(await changeStateQuery(db).executeTakeFirst()),
  changeCounter: async (db) => Number((await changeCounterQuery(db).executeTakeFirst())?.value ?? 0),
  featureLanguages: featureLanguagesSqlite,
  countChanges: countChangesSqlite,
  writeTransaction: groupedWrite,
};
