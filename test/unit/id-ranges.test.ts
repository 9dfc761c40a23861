import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendIds, expandRanges, type IdRange } from '../../src/domain/mass-edit/id-ranges.js';

/** A mass edit's report names its changed products as id ranges, built chunk by chunk. */
describe('id ranges', () => {
  it('compresses ascending ids into inclusive ranges, across chunks', () => {
    const ranges: IdRange[] = [];
    appendIds(ranges, [1, 2, 3, 7]);
    appendIds(ranges, [8, 10]);
    appendIds(ranges, []);
    expect(ranges).toEqual([
      [1, 3],
      [7, 8],
      [10, 10],
    ]);
  });

  it('refuses ids out of order (a report must not hide a mistake)', () => {
    const ranges: IdRange[] = [[5, 9]];
    expect(() => appendIds(ranges, [9])).toThrow(/out of order/);
    expect(() => appendIds(ranges, [3])).toThrow(/out of order/);
  });

  it('expands back to exactly the ids given, however they are cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 50 }),
        (raw, size) => {
          const ids = [...raw].sort((a, b) => a - b);
          const ranges: IdRange[] = [];
          for (let i = 0; i < ids.length; i += size) appendIds(ranges, ids.slice(i, i + size));
          expect(expandRanges(ranges)).toEqual(ids);
          for (let i = 1; i < ranges.length; i++)
            expect(ranges[i]![0]).toBeGreaterThan(ranges[i - 1]![1] + 1);
        },
      ),
    );
  });
});
