import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  unstorableCharacterError,
  unstorableCharacterPath,
} from '../../src/domain/validation/unstorable-character.js';
import { someString } from '../../src/domain/validation/some-string.js';

/** Follows a JSON pointer; a segment naming a key that holds the character yields the key itself. */
function resolve(data: unknown, pointer: string, holds: (text: string) => boolean): unknown {
  let at = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    if (holds(key)) return key;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const LONE = /\p{Surrogate}/u;
const unstorable = (text: string) => text.includes('\u0000') || LONE.test(text);
/** fast-check's strings hold no lone surrogate (checked below), so only U+0000 needs filtering. */
const storable = fc.jsonValue().filter((value) => !JSON.stringify(value).includes('\\u0000'));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** A character that cannot be stored, and the kind reported for it. */
const bad = fc.oneof(
  fc.constant(['\u0000', 'nul'] as const),
  loneSurrogate.map((c) => [c, 'surrogate'] as const),
);

describe('unstorable characters in request bodies (U+0000, half of a surrogate pair)', () => {
  it('finds none where there is none, surrogate pairs included', () => {
    fc.assert(
      fc.property(storable, (value) => {
        expect(unstorableCharacterPath(value)).toBeUndefined();
        expect(someString(value, unstorable, true)).toBe(false);
      }),
    );
    expect(unstorableCharacterPath({ emoji: '😀\ud83d\ude00' })).toBeUndefined();
  });

  it('names a path that leads to a string or key holding one, wherever it is, and its kind', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), bad, fc.boolean(), (value, text, [character, kind], asKey) => {
        const held = `${text}${character}`;
        const data = asKey ? { wrapped: [value, { [held]: 1 }] } : { wrapped: [value, held] };
        const error = unstorableCharacterError(data);
        expect(error?.params.character).toBe(kind === 'nul' || text.includes('\u0000') ? 'nul' : kind);
        const found = resolve(data, error!.instancePath, unstorable);
        expect(typeof found === 'string' && unstorable(found)).toBe(true);
      }),
    );
  });

  it('reports the first in document order', () => {
    expect(unstorableCharacterPath({ a: ['x', 'y\u0000'], 'b/~': 'z\u0000' })).toBe('/a/1');
    expect(unstorableCharacterPath({ a: 'x', 'b/~': 'z\u0000' })).toBe('/b~1~0');
    expect(unstorableCharacterPath({ a: 'x\ude00y', b: 'z\u0000' })).toBe('/a');
    expect(unstorableCharacterPath({ a: 'ok\ud83d' })).toBe('/a');
  });
});
