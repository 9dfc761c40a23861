import type { Generated } from 'kysely';
import type { ProductFieldColumns } from './catalogue/product-fields.js';

/**
 * Tables of a workspace database (one per workspace folder).
 * Timestamps are ISO 8601 UTC strings with milliseconds, so they sort as text.
 */
export interface WorkspaceDatabase {
  meta: MetaTable;
  product: ProductTable;
  product_text: ProductTextTable;
  feature_def: FeatureDefTable;
  product_feature: ProductFeatureTable;
  product_group: ProductGroupTable;
  product_group_name: ProductGroupNameTable;
  product_deletion: ProductDeletionTable;
  change_counter: ChangeCounterTable;
  product_keyword: ProductKeywordTable;
  product_media: ProductMediaTable;
  product_extra_group: ProductExtraGroupTable;
  product_fragment: ProductFragmentTable;
  catalog_fragment: CatalogFragmentTable;
  feature_value_key: FeatureValueKeyTable;
  feature_language: FeatureLanguageTable;
  mass_edit: MassEditTable;
  mass_edit_undo: MassEditUndoTable;
}

/** Key/value facts about the workspace: `default_language`, `next_root_group_seq`. */
export interface MetaTable {
  key: string;
  value: string;
}

/** The product's text fields (supplier_id_ref, ean, …) come from their definitions (catalogue/product-fields.ts). */
export interface ProductTable extends ProductFieldColumns {
  id: Generated<number>;
  supplier_pid: string;
  /** Set for a variant: the id of its main product. */
  master_id: number | null;
  /** The product group (product_group.id) the product is assigned to: its first group. */
  group_id: number | null;
  created_at: string;
  updated_at: string;
  /**
   * Rises by one (or more) with every change of the product, its texts, features, group
   * membership or variants: wherever updated_at is touched. The version behind its ETag.
   */
  revision: Generated<number>;
  /** A main product's number of variants (0 for a variant), kept by triggers (migration 0013). */
  variant_count: Generated<number>;
}

export type TextKind = 'DESCRIPTIONSHORT' | 'DESCRIPTIONLONG';

export interface ProductTextTable {
  product_id: number;
  kind: TextKind;
  lang: string;
  value: string;
}

export interface FeatureDefTable {
  id: Generated<number>;
  ftidref: string;
  default_unit: string | null;
  /** The names, TextEntryDto[] as compact JSON text ordered by language (feature-json.ts). */
  names_json: Generated<string>;
}

export interface ProductFeatureTable {
  product_id: number;
  feature_id: number;
  /** The nth feature of this id in the product (1: the one the single feature routes address). */
  occurrence: Generated<number>;
  funit: string | null;
  /** Order of the feature within the product (BMEcat keeps feature order). */
  position: number;
  /** The values, TextEntryDto[] as compact JSON text ordered by language (feature-json.ts). */
  values_json: Generated<string>;
  /** FeatureDetailsDto as compact JSON text, or NULL when the occurrence has none (feature-occurrence.rules.ts). */
  details_json: Generated<string | null>;
}

export interface ProductGroupTable {
  id: Generated<number>;
  parent_id: number | null;
  /** Hierarchical BMEcat id (1, 2, 2.1, ...). */
  bmecat_id: string;
  /** Next number to give a child of this group; numbers are never reused. */
  next_child_seq: number;
  /** The GROUP_ID a catalogue gave the group (BMEcat import), beside pim's own bmecat_id. */
  catalog_group_id: Generated<string | null>;
  /** A CATALOG_STRUCTURE's content beyond the model: JSON array of XML elements (migration 0024). */
  kept_xml: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

export interface ProductGroupNameTable {
  group_id: number;
  lang: string;
  name: string;
}

/** A deleted product, kept 30 days for delta sync (GET /api/product/deleted). */
export interface ProductDeletionTable {
  id: number;
  supplier_pid: string;
  deleted_at: string;
}

/**
 * The workspace's change counter: one row (id 1) whose value rises by one in every transaction
 * that changed the catalogue, committed with it (src/domain/changes/catalogue-transaction.ts).
 */
export interface ChangeCounterTable {
  id: number;
  value: number;
  /** The newest updatedAt/deletedAt committed ('' before the first change). */
  stamp: string;
}

/** KEYWORD per language, an ordered list per language. */
export interface ProductKeywordTable {
  product_id: number;
  lang: string;
  position: number;
  value: string;
}

/** MIME_INFO's MIME entries of a product, in order. */
export interface ProductMediaTable {
  product_id: number;
  position: number;
  mime_type: string | null;
  source: string;
  /** MIME_DESCR per language, TextEntryDto[] as compact JSON text. */
  descriptions_json: string;
  purpose: string | null;
  mime_order: number | null;
}

/** The groups of a product beyond its first (product.group_id), in order. */
export interface ProductExtraGroupTable {
  product_id: number;
  position: number;
  group_id: number;
}

/** Content pim does not model, kept verbatim (an XML fragment) with the place it stood. */
export interface ProductFragmentTable {
  product_id: number;
  position: number;
  place: string;
  xml: string;
}

/** The catalogue header's content pim does not model, kept verbatim per workspace. */
export interface CatalogFragmentTable {
  position: number;
  place: string;
  xml: string;
}

/**
 * Each distinct value (its first FEATURE_VALUE_KEY_LENGTH characters) of each feature occurrence:
 * the index a filter by feature and value reads. Kept by triggers on product_feature (migration 0008).
 */
export interface FeatureValueKeyTable {
  feature_id: number;
  value_key: string;
  product_id: number;
  occurrence: number;
}

/**
 * The (feature, language) pairs the values of first occurrences have used (0021): a superset of
 * those in use, kept by triggers; CatalogueSql.featureLanguages checks each.
 */
export interface FeatureLanguageTable {
  feature_id: number;
  lang: string;
}

/** A mass edit of this workspace whose undo data is kept (docs/mass-edits.md, "Undo"). */
export interface MassEditTable {
  /** The mass-edit job (system database). */
  job_id: number;
  /** Its action's name: setText, setFeature, removeFeature, assignGroup, unassignGroup, delete. */
  action: string;
  created_at: string;
  /** The undo job that restored it, once one has succeeded. */
  undone_by: number | null;
}

/** One product a mass edit changed: its state before, to restore it, and its revision right after. */
export interface MassEditUndoTable {
  job_id: number;
  product_id: number;
  /** Its revision once the edit was committed: another value at undo time means someone else changed it. */
  revision_after: number;
  /** What the action changed, as it was before (mass-edit-actions.ts), as JSON text. */
  before_json: string;
}
