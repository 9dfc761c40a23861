import { describe, expect, it } from 'vitest';
import {
  selectionOf,
  selectionSize,
  type GridFilters,
} from '../../src/ui/components/catalogue/grid-selection.js';
import { secondsLeft } from '../../src/ui/job-eta.js';

const EMPTY_STATE: GridFilters = {
  q: '',
  groupId: null,
  subgroups: false,
  mainOnly: false,
  updatedSince: '',
  textLang: '',
  text: '',
  ftidref: '',
  feature: '',
};

describe('the grid selection as a mass edit takes it', () => {
  it('sends the picked ids in ascending order, with the variants choice', () => {
    const picked = { ids: new Set([9, 3, 5]), allMatching: false };
    expect(selectionOf({ ...EMPTY_STATE, q: 'ignored' }, picked, false)).toEqual({ ids: [3, 5, 9] });
    expect(selectionOf(EMPTY_STATE, picked, true)).toEqual({ ids: [3, 5, 9], includeVariants: true });
    expect(selectionSize(picked, 100)).toBe(3);
  });

  it('sends the grid filters for all matching, leaving out what selects nothing', () => {
    const all = { ids: new Set([1]), allMatching: true };
    const state = {
      ...EMPTY_STATE,
      q: 'drill',
      groupId: 4,
      subgroups: true,
      mainOnly: true,
      textLang: 'deu',
      text: 'lacks' as const,
      ftidref: 'F1',
      feature: '' as const,
    };
    expect(selectionOf(state, all, false)).toEqual({
      q: 'drill',
      groupId: 4,
      includeSubgroups: true,
      mainOnly: true,
      textLang: 'deu',
      text: 'lacks',
    });
    expect(selectionOf({ ...EMPTY_STATE, subgroups: true }, all, true)).toEqual({
      mainOnly: false,
      includeVariants: true,
    });
    expect(selectionSize(all, 48_211)).toBe(48_211);
  });
});

describe('a job time left', () => {
  it('is unknown without a rate, else the work left at the rate heard so far', () => {
    expect(secondsLeft(undefined, { at: 1000, processed: 10 }, 100)).toBeUndefined();
    expect(secondsLeft({ at: 1000, processed: 0 }, { at: 1000, processed: 0 }, 100)).toBeUndefined();
    expect(secondsLeft({ at: 0, processed: 0 }, { at: 2000, processed: 1000 }, null)).toBeUndefined();
    expect(secondsLeft({ at: 0, processed: 0 }, { at: 2000, processed: 1000 }, 5000)).toBe(8);
    expect(secondsLeft({ at: 0, processed: 0 }, { at: 2000, processed: 5000 }, 5000)).toBe(0);
  });
});
