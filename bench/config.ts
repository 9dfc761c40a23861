/** Sizes, credentials and targets shared by the generator and the runner. */

export interface CatalogueSize {
  label: 'full' | 'quick';
  products: number;
  groups: number;
}

export const SIZES: Record<CatalogueSize['label'], CatalogueSize> = {
  full: { label: 'full', products: 100_000, groups: 5_000 },
  quick: { label: 'quick', products: 5_000, groups: 250 },
};

/** Raise when the generated data changes shape: cached data folders of another version are regenerated. */
export const GENERATOR_VERSION = 1;

export const LANGUAGES = ['deu', 'eng', 'fra'] as const;
export type Lang = (typeof LANGUAGES)[number];
/** Languages that carry a long text (DESCRIPTIONLONG). */
export const LONG_TEXT_LANGUAGES: readonly Lang[] = ['deu', 'eng'];
export const FEATURES_PER_PRODUCT = 10;
/** Feature classes (like ECLASS classes): each has its own 10 feature definitions. */
export const FEATURE_CLASSES = 30;

export const ADMIN = { username: 'admin', password: 'bench-admin-password' } as const;
export const WORKSPACE_NAME = 'Bench catalogue';
