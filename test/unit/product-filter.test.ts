import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/domain/products/product.cursor.js';
import { likePattern, parseInstant } from '../../src/domain/products/product.filter.js';
import { charCount, checkLength } from '../../src/domain/texts/text.rules.js';

describe('parseInstant', () => {
  it.each([
    ['2026-01-15T10:00:00Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T10:00:00.123Z', '2026-01-15T10:00:00.123Z'],
    ['2026-01-15T10:00:00.1234567Z', '2026-01-15T10:00:00.123Z'],
    ['2026-01-15T12:00:00+02:00', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T05:30-0430', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15T10:00Z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15t10:00:00z', '2026-01-15T10:00:00.000Z'],
    ['2026-01-15', '2026-01-15T00:00:00.000Z'],
    // Years below 100 are years, not 19xx; an offset may cross into year 0 (before every stamp).
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00+01:00', '0000-12-31T23:00:00.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ['2026-01-15T10:00:00-23:59', '2026-01-16T09:59:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseInstant(input, 'updatedSince')).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '2026-01-15T10:00:00',
    '2026-13-01',
    '2026-02-30',
    '2026-01-15T25:00:00Z',
    '1700000000',
    // Offsets beyond RFC 3339's ±23:59.
    '2026-01-15T10:00:00+24:00',
    '2026-01-15T10:00:00+99:99',
    '2026-01-15T10:00:00+01:60',
    // After year 9999 in UTC: stored stamps compare as text, and '+010000-…' would sort first.
    '9999-12-31T23:00:00-01:00',
    '9999-12-31T12:00:00-12:00',
  ])('refuses %j', (input) => {
    expect(() => parseInstant(input, 'updatedSince')).toThrow(/updatedSince/);
  });
});

describe('cursor', () => {
  it('round-trips every id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (id) => {
        expect(decodeCursor(encodeCursor(id))).toBe(id);
      }),
    );
  });

  it.each([
    '',
    'abc',
    '!!!',
    Buffer.from('p:x').toString('base64url'),
    Buffer.from('p:1 ').toString('base64url'),
    'cDox=',
  ])('refuses %j', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow(/cursor/);
  });
});

describe('likePattern', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(likePattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
  });
});

describe('charCount and checkLength', () => {
  it('counts code points', () => {
    expect(charCount('')).toBe(0);
    expect(charCount('abc')).toBe(3);
    expect(charCount('😀😀')).toBe(2);
    expect(charCount('\ud83d')).toBe(1);
  });

  it('refuses values over the limit and under the minimum', () => {
    expect(() => checkLength('😀'.repeat(3), 'f', 3)).not.toThrow();
    expect(() => checkLength('abcd', 'f', 3)).toThrow('f must be at most 3 characters');
    expect(() => checkLength('', 'f', 3, 1)).toThrow('f must not be empty');
  });
});
