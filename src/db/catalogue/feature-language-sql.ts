import { sql } from 'kysely';
import type { FeatureLanguageRow, WorkspaceDb } from './catalogue-sql.js';

/**
 * The languages of the values of each feature's first occurrences (what a spreadsheet export
 * writes as columns), read from the values' JSON: SQLite's json_each, PostgreSQL's
 * json_array_elements. Unordered.
 */
export async function featureLanguagesSqlite(db: WorkspaceDb): Promise<FeatureLanguageRow[]> {
  const { rows } = await sql<FeatureLanguageRow>`SELECT DISTINCT fd.ftidref, j.value ->> 'lang' AS lang
    FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id, json_each(pf.values_json) j
    WHERE pf.occurrence = 1`.execute(db);
  return rows;
}

export async function featureLanguagesPostgres(db: WorkspaceDb): Promise<FeatureLanguageRow[]> {
  const { rows } = await sql<FeatureLanguageRow>`SELECT DISTINCT fd.ftidref, j.value ->> 'lang' AS lang
    FROM product_feature pf JOIN feature_def fd ON fd.id = pf.feature_id
    CROSS JOIN LATERAL json_array_elements(pf.values_json) j(value)
    WHERE pf.occurrence = 1`.execute(db);
  return rows;
}
