/**
 * Ids as inclusive ranges [[from, to], …]: a report of 50,000 changed products in id order is a
 * few ranges, not 50,000 numbers. Built as chunks arrive (ascending ids), so a cancelled job's
 * report names exactly the chunks committed.
 */
export type IdRange = [number, number];

/** Adds ascending `ids` (each above the last one added) to `ranges`, in place. */
export function appendIds(ranges: IdRange[], ids: readonly number[]): void {
  for (const id of ids) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && id === last[1] + 1) last[1] = id;
    else if (last !== undefined && id <= last[1]) throw new Error(`ids out of order: ${id} after ${last[1]}`);
    else ranges.push([id, id]);
  }
}

/** The ids ranges stand for, ascending. */
export function expandRanges(ranges: readonly IdRange[]): number[] {
  const ids: number[] = [];
  for (const [from, to] of ranges) for (let id = from; id <= to; id++) ids.push(id);
  return ids;
}
