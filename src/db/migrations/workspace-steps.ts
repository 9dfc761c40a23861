import { sql, type Migration } from 'kysely';
import { changeCounterShards } from './0014-change-counter-shards.js';
import { massEditUndo } from './0015-mass-edit-undo.js';
import { featureValueKeyDelete } from './0016-feature-value-key-delete.js';
import { featureValueKeyInsert } from './0017-feature-value-key-insert.js';
import { shortTextBeyondKey } from './0018-short-text-beyond-key.js';
import { visibilityAutovacuum } from './0019-visibility-autovacuum.js';
import { supplierPidTrigramPartial } from './0020-supplier-pid-trigram-partial.js';
import { featureLanguage } from './0021-feature-language.js';
import { productSearch } from './0022-product-search.js';
import { fallbackKeyStatements } from './0023-fallback-key-statements.js';
import { groupKeptContent } from './0024-group-kept-content.js';
import { fallbackNameKeyPostgres } from './0011-fallback-name-key.postgres.js';
import { fallbackNameKeySqlite } from './0011-fallback-name-key.sqlite.js';
import { gridIndexesPostgres } from './0010-grid-indexes.postgres.js';
import { gridIndexesSqlite } from './0010-grid-indexes.sqlite.js';
import { nameLanguagesPostgres } from './0012-name-languages.postgres.js';
import { nameLanguagesSqlite } from './0012-name-languages.sqlite.js';
import { productModelPostgres } from './0008-product-model.postgres.js';
import { productModelSqlite } from './0008-product-model.sqlite.js';
import { variantCountPostgres } from './0013-variant-count.postgres.js';
import { variantCountSqlite } from './0013-variant-count.sqlite.js';

/**
 * A workspace migration step under one name, written for both dialects side by side: the steps
 * from 0008 on. workspace.migrations.ts and workspace.migrations.postgres.ts append them to their
 * older lists (test/unit/migration-names.test.ts checks that both list the same names in order).
 */
export interface WorkspaceStep {
  sqlite: Migration;
  postgres: Migration;
}

/** Adds nullable text columns to table product: a new text field (db/catalogue/product-fields.ts). */
export function addProductColumns(...columns: readonly string[]): WorkspaceStep {
  const step = (type: string): Migration => ({
    async up(db) {
      for (const column of columns) {
        await db.schema.alterTable('product').addColumn(column, sql.raw(type)).execute();
      }
    },
  });
  // COLLATE "C" on PostgreSQL: compared and ordered by code point, as SQLite does.
  return { sqlite: step('text'), postgres: step('text COLLATE "C"') };
}

export const workspaceSteps: Readonly<Record<string, WorkspaceStep>> = {
  '0008_product_model': { sqlite: productModelSqlite, postgres: productModelPostgres },
  '0009_order_units': addProductColumns('order_unit', 'content_unit'),
  '0010_grid_indexes': { sqlite: gridIndexesSqlite, postgres: gridIndexesPostgres },
  '0011_fallback_name_key': { sqlite: fallbackNameKeySqlite, postgres: fallbackNameKeyPostgres },
  '0012_name_languages': { sqlite: nameLanguagesSqlite, postgres: nameLanguagesPostgres },
  '0013_variant_count': { sqlite: variantCountSqlite, postgres: variantCountPostgres },
  '0014_change_counter_shards': changeCounterShards,
  '0015_mass_edit_undo': massEditUndo,
  '0016_feature_value_key_delete': featureValueKeyDelete,
  '0017_feature_value_key_insert': featureValueKeyInsert,
  '0018_short_text_beyond_key': shortTextBeyondKey,
  '0019_visibility_autovacuum': visibilityAutovacuum,
  '0020_supplier_pid_trigram_partial': supplierPidTrigramPartial,
  '0021_feature_language': featureLanguage,
  '0022_product_search': productSearch,
  '0023_fallback_key_statements': fallbackKeyStatements,
  '0024_group_kept_content': groupKeptContent,
};

/** The steps of one dialect, in order. */
export function stepsOf(dialect: keyof WorkspaceStep): Record<string, Migration> {
  return Object.fromEntries(Object.entries(workspaceSteps).map(([name, step]) => [name, step[dialect]]));
}
