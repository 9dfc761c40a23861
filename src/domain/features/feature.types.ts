import type { TextEntry } from '../texts/text.repository.js';

/** A feature of a product: its FT_IDREF, unit, the definition's names and the values per language. */
export interface FeatureDto {
  ftidref: string;
  /** The product's unit for the feature, else the definition's default unit, else null. */
  funit: string | null;
  /** Names of the feature definition, ordered by language code. */
  names: TextEntry[];
  /** Values, one per language, ordered by language code. */
  values: TextEntry[];
}

export interface SetFeatureInput {
  /** Optional; when sent it must equal the ftidref of the path. */
  ftidref?: string;
  /** When sent, replaces the product's unit (null: fall back to the definition's default unit). */
  funit?: string | null;
  values: TextEntry[];
}

export interface FeatureDefinitionInput {
  ftidref: string;
  defaultUnit?: string | null;
  /** Names per language; languages not named keep their names. */
  names?: Array<{ lang: string; name: string }>;
}
