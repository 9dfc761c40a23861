import { sql } from 'kysely';
import type { FeatureLanguageRow, WorkspaceDb } from './catalogue-sql.js';

/**
 * The languages of the values of each feature's first occurrences (what a spreadsheet export
 * writes as columns). feature_language holds every pair the writes have used (0021); each is
 * checked here for a value still using it, through product_feature's (feature_id, product_id)
 * index and ending at the first one found: some hundred probes instead of reading every value's
 * JSON. A pair whose last value went reads that feature's first occurrences once. Unordered.
 */
export async function featureLanguagesSqlite(db: WorkspaceDb): Promise<FeatureLanguageRow[]> {
  const { rows } = await sql<FeatureLanguageRow>`SELECT fd.ftidref, fl.lang
    FROM feature_language fl JOIN feature_def fd ON fd.id = fl.feature_id
    WHERE EXISTS (SELECT 1 FROM product_feature pf, json_each(pf.values_json) j
      WHERE pf.feature_id = fl.feature_id AND pf.occurrence = 1 AND j.value ->> 'lang' = fl.lang)`.execute(
    db,
  );
  return rows;
}

export async function featureLanguagesPostgres(db: WorkspaceDb): Promise<FeatureLanguageRow[]> {
  // LATERAL … LIMIT 1, not EXISTS: the planner may turn a semi-join into a hash of every value.
  const { rows } = await sql<FeatureLanguageRow>`SELECT fd.ftidref, fl.lang
    FROM feature_language fl JOIN feature_def fd ON fd.id = fl.feature_id
    CROSS JOIN LATERAL (SELECT 1 FROM product_feature pf CROSS JOIN LATERAL json_array_elements(pf.values_json) e
      WHERE pf.feature_id = fl.feature_id AND pf.occurrence = 1 AND e ->> 'lang' = fl.lang LIMIT 1) used`.execute(
    db,
  );
  return rows;
}
