/**
 * Feature values are indexed by their first characters (feature_value_key.value_key): a B-tree
 * entry of PostgreSQL holds at most about 2.7 kB, and values reach 1,000,000 characters. A filter
 * by a longer value compares the whole value after the index found the candidates.
 */
export const FEATURE_VALUE_KEY_LENGTH = 256;
