import { someString } from './some-string.js';

/**
 * Characters refused in every string pim stores, on every backend, checked after the schema so
 * that the answer is the usual 400 naming the field:
 * - U+0000: PostgreSQL's text cannot hold it, XML 1.0 (BMEcat) cannot carry it, and no catalogue
 *   text needs it;
 * - half of a surrogate pair (JSON allows "\ud800" alone): it is no character, UTF-8 cannot encode
 *   it, and both backends would store U+FFFD in its place, so the answer would differ from what was
 *   sent, and two different supplierPids could read back alike.
 */
export const UNSTORABLE_KEYWORD = 'unstorableCharacter';

const LONE_SURROGATE = /\p{Surrogate}/u;
const isUnstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

export type UnstorableCharacter = 'nul' | 'surrogate';

/** The JSON pointer (Ajv's instancePath) of the first string or key in `data` holding one, if any. */
export function unstorableCharacterPath(data: unknown): string | undefined {
  return unstorableCharacterAt(data)?.path;
}

/** Where the first unstorable character is, and which kind it is. */
function unstorableCharacterAt(data: unknown): { path: string; character: UnstorableCharacter } | undefined {
  // The path is built only when there is one to find: building it for every string cost the bulk
  // upsert about 6 % of its CPU.
  if (!someString(data, isUnstorable, true)) return undefined;
  const found = find(data, '');
  if (!found) return undefined;
  return { path: found.path, character: found.text.includes('\u0000') ? 'nul' : 'surrogate' };
}

function find(data: unknown, path: string): { path: string; text: string } | undefined {
  if (typeof data === 'string') return isUnstorable(data) ? { path, text: data } : undefined;
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const found = find(data[i], `${path}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof data === 'object' && data !== null) {
    for (const [key, value] of Object.entries(data)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (isUnstorable(key)) return { path: at, text: key };
      const found = find(value, at);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The error object the validators report for the first unstorable character in `data`, if any
 * (Ajv's shape, so one formatter names the field).
 */
export function unstorableCharacterError(data: unknown) {
  const found = unstorableCharacterAt(data);
  if (!found) return undefined;
  return {
    keyword: UNSTORABLE_KEYWORD,
    instancePath: found.path,
    schemaPath: '#',
    params: { character: found.character },
  };
}

/** The end of the sentence that names the field: what it must not contain. */
export function unstorableCharacterRule(character: unknown): string {
  return character === 'nul'
    ? 'must not contain the character U+0000'
    : 'must not contain half of a surrogate pair (such as \\ud800 without its partner): it is no character';
}
