/** Limits of the product model's parts (product-model.schemas.ts); the service checks them again. */
export const MODEL_FIELD_MAX = 256;
export const VALUE_IDREFS_MAX = 100;
/** Values of one feature occurrence: several per language are allowed. */
export const OCCURRENCE_VALUES_MAX = 1000;
/** Feature occurrences of one product (ECLASS Advanced products carry several hundred). */
export const ALL_FEATURES_MAX = 5000;
export const KEYWORD_MAX = 1000;
export const KEYWORDS_MAX = 1000;
export const MEDIA_MAX = 500;
export const MEDIA_SOURCE_MAX = 4000;
export const MEDIA_DESCRIPTIONS_MAX = 500;
export const GROUPS_MAX = 100;
export const FRAGMENTS_MAX = 1000;
export const FRAGMENT_PLACE_MAX = 1000;
