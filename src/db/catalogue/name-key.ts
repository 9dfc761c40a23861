/**
 * How many characters of a name the sort by name compares (docs/catalogue-grid.md): names reach
 * 1,000,000 characters and a PostgreSQL btree holds no entry over about 2.7 kB, so the index keys
 * a prefix; names equal in their first NAME_KEY_LENGTH characters are ordered by id.
 */
export const NAME_KEY_LENGTH = 200;
