import { sql } from 'kysely';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import type { TextEntry } from '../texts/text.repository.js';

/**
 * A group as an export writes it: every name, its parent, the GROUP_ID a catalogue gave it and
 * what its CATALOG_STRUCTURE held beyond that (a JSON array of XML elements, or null).
 */
export interface OutlineGroupRow {
  id: number;
  parent_id: number | null;
  bmecat_id: string;
  catalog_group_id: string | null;
  kept_xml: string | null;
}

export async function selectOutlineGroups(db: WorkspaceDb): Promise<OutlineGroupRow[]> {
  const { rows } =
    await sql<OutlineGroupRow>`SELECT g.id, g.parent_id, g.bmecat_id, g.catalog_group_id, g.kept_xml
    FROM product_group g ORDER BY g.id`.execute(db);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    parent_id: r.parent_id === null ? null : Number(r.parent_id),
  }));
}

/** Every group name, ordered by group and language. */
export async function selectGroupNames(db: WorkspaceDb): Promise<(TextEntry & { group_id: number })[]> {
  const { rows } = await sql<TextEntry & { group_id: number }>`SELECT n.group_id, n.lang, n.name AS value
    FROM product_group_name n ORDER BY n.group_id, n.lang`.execute(db);
  return rows.map((r) => ({ ...r, group_id: Number(r.group_id) }));
}

export interface FeatureDefinitionRow {
  ftidref: string;
  default_unit: string | null;
  names_json: string;
}

export async function selectFeatureDefinitions(db: WorkspaceDb): Promise<FeatureDefinitionRow[]> {
  const { rows } = await sql<FeatureDefinitionRow>`SELECT fd.ftidref, fd.default_unit, fd.names_json
    FROM feature_def fd ORDER BY fd.id`.execute(db);
  return rows;
}

/** The languages the catalogue's texts are written in (short and long texts), by code. */
export async function selectTextLanguages(db: WorkspaceDb): Promise<string[]> {
  const { rows } = await sql<{
    lang: string;
  }>`SELECT DISTINCT t.lang FROM product_text t ORDER BY t.lang`.execute(db);
  return rows.map((r) => r.lang);
}
