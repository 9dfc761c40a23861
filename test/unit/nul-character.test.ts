import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nulCharacterPath } from '../../src/domain/validation/nul-character.js';
import { someString } from '../../src/domain/validation/some-string.js';

/** Follows a JSON pointer; a segment naming a key that holds NUL yields the key itself. */
function resolve(data: unknown, pointer: string): unknown {
  let at = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    if (key.includes('\u0000')) return key;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const withoutNul = fc.jsonValue().filter((value) => !JSON.stringify(value).includes('\\u0000'));

describe('NUL characters in request bodies', () => {
  it('finds none where there is none', () => {
    fc.assert(
      fc.property(withoutNul, (value) => {
        expect(nulCharacterPath(value)).toBeUndefined();
        expect(someString(value, (text) => text.includes('\u0000'), true)).toBe(false);
      }),
    );
  });

  it('names a path that leads to a string or key holding it, wherever it is', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), fc.boolean(), (value, text, asKey) => {
        const nul = `${text}\u0000`;
        const data = asKey ? { wrapped: [value, { [nul]: 1 }] } : { wrapped: [value, nul] };
        const path = nulCharacterPath(data);
        expect(path).toBeDefined();
        const found = resolve(data, path!);
        expect(typeof found === 'string' && found.includes('\u0000')).toBe(true);
      }),
    );
  });

  it('reports the first in document order', () => {
    expect(nulCharacterPath({ a: ['x', 'y\u0000'], 'b/~': 'z\u0000' })).toBe('/a/1');
    expect(nulCharacterPath({ a: 'x', 'b/~': 'z\u0000' })).toBe('/b~1~0');
  });
});
