/** The bounds of one product write and of one bulk call: imported by the schemas and the error catalogue. */

/** Documents in one bulk call: a batch commits as one transaction, so it stays a bounded one. */
export const BULK_DOCUMENTS_MAX = 1000;

/**
 * Texts and feature values in one bulk call: a thousand full documents hold about 35,000 and are
 * written in about 0.1 s; 100,000 keep a call's synchronous work well under a second (the probe's
 * 62 MB batch of 2.3 million values blocked the server for 5 s).
 */
export const BULK_ROWS_MAX = 100_000;

/**
 * Body limit of the bulk routes only (the others keep 8 MiB). Texts are written at about 30 ms a
 * megabyte, during which the server answers nobody: 64 MiB of long texts held it for 1.8 s; 16 MiB
 * hold it for about half a second and still carry a thousand documents of several kilobytes each.
 */
export const BULK_BODY_LIMIT = 16 * 1024 * 1024;

/** Languages in one list of texts: one value per language, and ISO 639-2 has fewer than 500. */
export const TEXT_LANGUAGES_MAX = 500;

/** Features set in one call. */
export const SHEET_FEATURES_MAX = 500;

/**
 * Texts and feature values written for one product in one call. The list limits above allow
 * 500 features of 500 values (250,000 rows: seconds of work in which the server answers nobody
 * else); real products have a few hundred.
 */
export const SHEET_ROWS_MAX = 10_000;
