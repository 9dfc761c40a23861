import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Application } from '../../src/app/application.js';
import { ManualClock } from '../../src/domain/clock.js';
import { upsertProducts } from '../../src/domain/products/product-bulk.service.js';
import type { BulkProductResultDto } from '../../src/domain/products/product-bulk.schemas.js';
import {
  setProductGroups,
  type ProductGroupList,
} from '../../src/domain/products/product-groups-bulk.service.js';
import { getProductSheet } from '../../src/domain/products/product-sheet.service.js';
import { listProducts } from '../../src/domain/products/product.service.js';
import { GROUPS_MAX } from '../../src/domain/products/product-model.rules.js';
import { pairedWorkspaces, writeOnBoth } from '../helpers/paired-workspaces.js';
import { comparableResult, productState, revisionRises, touchedProducts } from '../helpers/product-state.js';

/**
 * setProductGroups (the groups of many products, for a catalogue's PRODUCT_TO_CATALOGGROUP_MAPs)
 * against the bulk upsert of `{supplierPid, groupIds}` documents, whose stored result it must
 * equal: the same generated batches over the same products, written into two workspaces that
 * start equal (two applications on one clock), give the same statuses and codes, the same product
 * sheets, the same touched products and the same change counter.
 *
 * GROUPS_EQUALITY_SEED=<n> replays another seed.
 */

const SEED = Number(process.env.GROUPS_EQUALITY_SEED ?? 20261129);
const clock = new ManualClock(new Date('2026-03-01T08:00:00.000Z'));
type Write = (
  ctx: ReturnType<Application['ownerContext']>,
  entries: ProductGroupList[],
) => Promise<BulkProductResultDto[]>;
const MISSING_GROUP = 999_999;

/**
 * The upsert's side: changes become the whole list, from the product's stored sheet (the oracle of
 * what changes mean: an added group goes last unless the product is in it, a removed one leaves).
 */
const upsertLists: Write = async (ctx, entries) => {
  const lists: { supplierPid: string; groupIds: readonly number[] }[] = [];
  for (const entry of entries) {
    if ('groupIds' in entry) {
      lists.push(entry);
      continue;
    }
    const [product] = await listProducts(ctx, { all: true, supplierPid: entry.supplierPid });
    let list = product ? (await getProductSheet(ctx, product.id)).groups.map((g) => g.id) : [];
    for (const { groupId, remove } of entry.changes) {
      if (remove) list = list.filter((g) => g !== groupId);
      else if (!list.includes(groupId)) list.push(groupId);
    }
    lists.push({ supplierPid: entry.supplierPid, groupIds: list });
  }
  return upsertProducts(ctx, lists);
};

const { sides, groupIds } = pairedWorkspaces<Write>({
  dirPrefix: 'pim-groups-equality-',
  clock,
  writes: [upsertLists, setProductGroups],
  groups: [['Werkzeug'], ['Bohrer', 0], ['Zubehör'], ['Kabel']],
});

/** K0 and K1 main products, K2 and K3 variants of K0, each in a group or none, K1 with others. */
async function makeProducts(prefix: string): Promise<void> {
  for (const side of sides) {
    const results = await upsertProducts(side.app.ownerContext(), [
      { supplierPid: `${prefix}-K0`, name: 'Bohrer', groupId: groupIds[0] },
      { supplierPid: `${prefix}-K1`, name: 'Kabel', groupIds: [groupIds[3], groupIds[1], groupIds[2]] },
      { supplierPid: `${prefix}-K2`, masterSupplierPid: `${prefix}-K0`, name: 'Bohrer 6' },
      { supplierPid: `${prefix}-K3`, masterSupplierPid: `${prefix}-K0`, groupIds: [groupIds[2]] },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
  }
}

/** Group slots: 0-3 the groups made above, 4 a group that does not exist. */
const slot = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.constant(4) },
);
const groupOf = (s: number) => (s === 4 ? MISSING_GROUP : groupIds[s]!);
/** A whole list of groups, or changes to the stored one (a catalogue's update mappings). */
const entryArb = fc.record({
  key: fc.integer({ min: 0, max: 3 }),
  slots: fc.oneof(
    { weight: 24, arbitrary: fc.uniqueArray(slot, { maxLength: 4 }) },
    { weight: 1, arbitrary: slot.map((s) => [s, s]) },
    { weight: 1, arbitrary: fc.constant(Array.from({ length: GROUPS_MAX + 1 }, (_, i) => i % 4)) },
  ),
  changes: fc.option(fc.array(fc.record({ slot, remove: fc.boolean() }), { maxLength: 4 }), {
    nil: undefined,
    freq: 2,
  }),
});
/** Mostly one entry per product; a second one is refused (it names the key again). */
const batchArb = fc.oneof(
  { weight: 8, arbitrary: fc.uniqueArray(entryArb, { minLength: 1, maxLength: 4, selector: (e) => e.key }) },
  { weight: 1, arbitrary: fc.array(entryArb, { minLength: 2, maxLength: 4 }) },
);

describe('setProductGroups stores what the bulk upsert of the same groups stores', () => {
  it('same statuses, sheets, touched products and change counter, batch after batch (fast-check)', async () => {
    let run = 0;
    let refusals = 0;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { minLength: 1, maxLength: 3 }), async (batches) => {
        const prefix = `G${++run}`;
        await makeProducts(prefix);
        for (const [n, batch] of batches.entries()) {
          clock.advance(1000);
          const entries = batch.map((e): ProductGroupList => {
            const supplierPid = `${prefix}-K${e.key}`;
            return e.changes
              ? {
                  supplierPid,
                  changes: e.changes.map((c) => ({ groupId: groupOf(c.slot), remove: c.remove })),
                }
              : { supplierPid, groupIds: e.slots.map(groupOf) };
          });
          const [upsert, set] = await writeOnBoth(sides, prefix, entries);
          const what = `run ${run}, batch ${n}: ${JSON.stringify(entries)}`;
          // Statuses and codes; the upsert's schema words a list too long in its own sentence.
          const brief = (results: BulkProductResultDto[], pidOf: Map<number, string>) =>
            results.map((r) => {
              const { id, status, code, error } = comparableResult(r, pidOf);
              return {
                id,
                status,
                code,
                error: error?.includes('groupIds') && error.includes('100') ? 'too many' : error,
              };
            });
          expect(brief(set.results, set.after.pidOf), what).toEqual(
            brief(upsert.results, upsert.after.pidOf),
          );
          expect(Object.fromEntries(set.after.sheets), what).toEqual(Object.fromEntries(upsert.after.sheets));
          const touched = touchedProducts(revisionRises(set.before, set.after));
          expect(touched, `${what}: touched`).toEqual(
            touchedProducts(revisionRises(upsert.before, upsert.after)),
          );
          expect(set.after.counter - set.before.counter, `${what}: change counter`).toBe(
            upsert.after.counter - upsert.before.counter,
          );
          refusals += set.results.filter((r) => r.status >= 400).length;
          written += set.results.filter((r) => r.status < 400).length;
        }
      }),
      { seed: SEED, numRuns: 25 },
    );
    expect(refusals).toBeGreaterThan(0);
    expect(written).toBeGreaterThan(refusals);
  }, 300_000);

  it('refuses a product that does not exist (the upsert would create it) and writes the rest', async () => {
    const prefix = 'Unknown';
    await makeProducts(prefix);
    const side = sides[1]!;
    const results = await setProductGroups(side.app.ownerContext(), [
      { supplierPid: `${prefix}-nowhere`, groupIds: [groupIds[1]!] },
      { supplierPid: `${prefix}-K1`, groupIds: [groupIds[1]!] },
    ]);
    expect(results.map(({ status, code }) => ({ status, code }))).toEqual([
      { status: 404, code: 'PRODUCT_NOT_FOUND' },
      { status: 200, code: undefined },
    ]);
    const state = await productState(side.app, prefix);
    expect(state.pidOf.size).toBe(4);
    expect(state.sheets.get(`${prefix}-K1`)).toMatchObject({ groups: [{ id: groupIds[1] }] });
  });
});
