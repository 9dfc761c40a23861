import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { defineFeature } from '../../src/domain/features/feature.service.js';
import { upsertProducts, upsertProductsOneByOne } from '../../src/domain/products/product-bulk.service.js';
import { pairedWorkspaces, writeOnBoth } from '../helpers/paired-workspaces.js';
import {
  comparableResult as comparable,
  revisionRises as rises,
  touchedProducts as touched,
} from '../helpers/product-state.js';

/**
 * The bulk upsert's set-based write (product-bulk-fast.ts, the model's parts included) against the
 * path it falls back to, document by document through the single services
 * (upsertProductsOneByOne): the same generated batches, written into two workspaces that start
 * equal (two applications on one clock), give the same results (statuses, error sentences,
 * codes), the same product sheets (ids compared by supplierPid, timestamps as they are), the same
 * touched products and the same change counter.
 *
 * That the set-based write was taken (it falls back silently when a statement fails) shows in the
 * revisions: it raises a product's revision once per batch (twice for a main product whose
 * variant changes too), where the single services raise it once per text, feature and part.
 *
 * BULK_EQUALITY_SEED=<n> replays another seed; BULK_EQUALITY_RUNS=<n> changes the number of runs.
 */

const SEED = Number(process.env.BULK_EQUALITY_SEED ?? 20261128);
const NUM_RUNS = Number(process.env.BULK_EQUALITY_RUNS ?? 40);

const clock = new ManualClock(new Date('2026-02-01T08:00:00.000Z'));
const MISSING_GROUP = 999_999;
const DEFINED_FTIDREF = '0173-1#02-AAF040#004';

const { sides, groupIds } = pairedWorkspaces({
  dirPrefix: 'pim-bulk-equality-',
  clock,
  writes: [upsertProducts, upsertProductsOneByOne],
  groups: [['Werkzeug'], ['Bohrer', 0], ['Zubehör'], ['Größe 😀']],
  prepare: (owner) =>
    defineFeature(owner, {
      ftidref: DEFINED_FTIDREF,
      defaultUnit: 'V',
      names: [
        { lang: 'deu', name: 'Spannung' },
        { lang: 'eng', name: 'Voltage' },
      ],
    }).then(() => undefined),
});

// ---------------------------------------------------------------------------------------------
// Arbitraries: documents over a few supplierPids, so that later batches update what earlier ones
// created, with every part of the model and every refusal the plan decides.

const unit = fc.constantFrom('a', 'b', 'Z', '0', ' ', '-', '<', '&', '"', 'ä', 'é', '€', '😀', '\n');
const text = (minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });
/** Mostly `good`, sometimes `bad`: a document refused for one reason, the rest of its batch written. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, weight = 12) =>
  fc.oneof({ weight, arbitrary: good }, { weight: 1, arbitrary: bad });
/** ger is deu and ENG eng (stored as deu and eng: beside them, a language named twice); xx is none. */
const lang = mostly(fc.constantFrom('deu', 'eng', 'fra', 'zxx'), fc.constantFrom('xx', 'ger', 'ENG'), 40);
const entries = (maxLength: number, minValue = 0) =>
  fc.array(fc.record({ lang, value: text(minValue, 6) }), { maxLength });
/** One per language as sent. */
const texts = fc.uniqueArray(fc.record({ lang, value: text(0, 8) }), {
  maxLength: 3,
  selector: (t) => t.lang,
});
const ftidref = fc.constantFrom(DEFINED_FTIDREF, 'EF-1', 'EF-2', 'X/1 #a');
const optional = (max: number) => fc.option(text(0, max), { nil: null });
const details = fc.option(
  fc.record({
    valueIdrefs: fc.array(text(1, 4), { maxLength: 2 }),
    valueDetails: entries(2),
    fid: optional(4),
    fparentId: optional(4),
    referenceSystem: fc.option(fc.constantFrom('ECLASS-9.0', 'ETIM-7.0'), { nil: null }),
    referenceGroupId: optional(4),
  }),
  { nil: null },
);
const occurrence = fc.record(
  { ftidref, funit: fc.option(fc.constantFrom('mm', 'V', ''), { nil: null }), values: entries(4), details },
  { requiredKeys: ['ftidref', 'values'] },
);
/** `features` names each ftidref once (twice is a refusal), each language once. */
const feature = fc.record(
  { ftidref, funit: fc.option(fc.constantFrom('mm', 'V'), { nil: null }), values: texts },
  { requiredKeys: ['ftidref', 'values'] },
);
const media = fc.record({
  type: fc.option(fc.constantFrom('image/jpeg', 'url'), { nil: null }),
  source: text(1, 8),
  descriptions: entries(2),
  purpose: fc.option(fc.constantFrom('normal', 'thumbnail'), { nil: null }),
  order: fc.option(fc.integer({ min: -3, max: 5 }), { nil: null }),
});
const fragment = fc.record({
  place: fc.constantFrom('USER_DEFINED_EXTENSIONS', 'PRODUCT'),
  xml: text(1, 10),
});
/** Group slots: 0-3 the groups made above, 4 a group that does not exist. */
const groupSlot = mostly(fc.integer({ min: 0, max: 3 }), fc.constant(4), 20);
const KEYS = 4;

const documentArb = fc.record({
  key: fc.integer({ min: 0, max: KEYS - 1 }),
  /**
   * A key (a variant of that product; K0 is made before the batches), or KEYS: a supplierPid no
   * document has.
   */
  master: fc.oneof(
    { weight: 16, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: KEYS }) },
  ),
  fields: fc.record(
    {
      ean: optional(6),
      manufacturerName: optional(6),
      orderUnit: fc.option(fc.constantFrom('C62', 'MTR'), { nil: null }),
      contentUnit: fc.option(fc.constantFrom('C62', 'KGM'), { nil: null }),
      name: mostly(fc.constantFrom('Bohrer', 'Drill é'), fc.constant('  '), 24),
      language: mostly(fc.constantFrom('deu', 'eng', 'ger'), fc.constant('xx'), 24),
    },
    { requiredKeys: [] },
  ),
  texts: fc.record({ shortTexts: texts, longTexts: texts }, { requiredKeys: [] }),
  features: fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    {
      weight: 3,
      arbitrary: fc.record({
        features: mostly(
          fc.uniqueArray(feature, { maxLength: 3, selector: (f) => f.ftidref }),
          fc.array(feature, { minLength: 2, maxLength: 3 }),
        ),
      }),
    },
    { weight: 8, arbitrary: fc.record({ allFeatures: fc.array(occurrence, { maxLength: 5 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ features: fc.array(feature, { maxLength: 1 }), allFeatures: fc.constant([]) }),
    },
  ),
  groups: fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 3, arbitrary: fc.record({ groupId: fc.option(groupSlot, { nil: null }) }) },
    {
      weight: 8,
      arbitrary: fc.record({
        groupIds: mostly(
          fc.uniqueArray(groupSlot, { maxLength: 3 }),
          groupSlot.map((slot) => [slot, slot]),
          24,
        ),
      }),
    },
    { weight: 1, arbitrary: fc.record({ groupId: groupSlot, groupIds: fc.constant([]) }) },
  ),
  /** Mostly none: two faults (FAULTS) in one document, for the order in which refusals are decided. */
  faults: mostly(
    fc.constant<number[]>([]),
    fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 2, maxLength: 2 }),
    6,
  ),
  parts: fc.record(
    {
      keywords: entries(4, 1),
      media: fc.array(media, { maxLength: 2 }),
      fragments: fc.array(fragment, { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
});
type DocumentIn = typeof documentArb extends fc.Arbitrary<infer D> ? D : never;
/** Mostly one document per supplierPid; a second one is refused (it names the key again). */
const batchArb = mostly(
  fc.uniqueArray(documentArb, { minLength: 1, maxLength: 5, selector: (d) => d.key }),
  fc.array(documentArb, { minLength: 2, maxLength: 5 }),
  12,
);

const groupOf = (slot: number) => (slot === 4 ? MISSING_GROUP : groupIds[slot]!);

type Doc = Record<string, unknown>;
const without = (doc: Doc, ...keys: string[]) =>
  Object.fromEntries(Object.entries(doc).filter(([key]) => !keys.includes(key)));
/** Faults each decided at another step of the per-document path (product-bulk-plan.ts lists them). */
const FAULTS: ((doc: Doc, prefix: string) => Doc)[] = [
  (doc) => ({ ...without(doc, 'groupId'), groupIds: [MISSING_GROUP] }),
  (doc) => ({ ...doc, name: '  ' }),
  (doc) => ({ ...doc, language: 'xx' }),
  (doc) => ({
    ...without(doc, 'allFeatures'),
    features: [{ ftidref: 'EF-1', values: [{ lang: 'xx', value: '1' }] }],
  }),
  (doc, prefix) => ({ ...doc, masterSupplierPid: `${prefix}-K${KEYS}` }),
  (doc) => ({ ...doc, shortTexts: [{ lang: 'xx', value: 'a' }] }),
  (doc) => ({ ...doc, keywords: [{ lang: 'xx', value: 'k' }] }),
  (doc) => ({ ...without(doc, 'groupIds'), groupId: MISSING_GROUP }),
];

/** The bulk document of a generated one, its supplierPids in the run's own namespace. */
function documentOf(d: DocumentIn, prefix: string): Doc {
  const { groupId, groupIds: slots } = d.groups as { groupId?: number | null; groupIds?: number[] };
  const doc: Doc = {
    supplierPid: `${prefix}-K${d.key}`,
    ...(d.master === undefined ? {} : { masterSupplierPid: `${prefix}-K${d.master}` }),
    ...d.fields,
    ...d.texts,
    ...d.features,
    ...(groupId === undefined ? {} : { groupId: groupId === null ? null : groupOf(groupId) }),
    ...(slots === undefined ? {} : { groupIds: slots.map(groupOf) }),
    ...d.parts,
  };
  return d.faults.reduce((faulty, fault) => FAULTS[fault]!(faulty, prefix), doc);
}

describe('the set-based bulk upsert stores what the document-by-document path stores', () => {
  it('same results, sheets, touched products and change counter, batch after batch (fast-check)', async () => {
    let run = 0;
    let batchCount = 0;
    let discriminating = 0;
    let refusals = 0;
    let written = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(batchArb, { minLength: 1, maxLength: 3 }), async (batchList) => {
        const prefix = `R${++run}`;
        // K0 first, a main product the documents' masterSupplierPid mostly names.
        const batches = [
          [{ supplierPid: `${prefix}-K0` }],
          ...batchList.map((b) => b.map((d) => documentOf(d, prefix))),
        ];
        for (const [n, documents] of batches.entries()) {
          clock.advance(1000);
          const [set, one] = await writeOnBoth(sides, prefix, documents);
          const what = `run ${run}, batch ${n}: ${JSON.stringify(documents)}`;
          expect(
            set.results.map((r) => comparable(r, set.after.pidOf)),
            what,
          ).toEqual(one.results.map((r) => comparable(r, one.after.pidOf)));
          expect(Object.fromEntries(set.after.sheets), what).toEqual(Object.fromEntries(one.after.sheets));
          const [setRises, oneRises] = [rises(set.before, set.after), rises(one.before, one.after)];
          expect(touched(setRises), `${what}: touched`).toEqual(touched(oneRises));
          // The counter rises once for a batch that changed something, not for one that changed
          // nothing. The document-by-document path may raise it for nothing: a document it refuses
          // after writing (its savepoint rolled back) still counts as a change (change-counter-sql.ts).
          const delta = set.after.counter - set.before.counter;
          expect(delta, `${what}: change counter`).toBe(touched(setRises).length > 0 ? 1 : 0);
          expect(one.after.counter - one.before.counter, `${what}: change counter`).toBeGreaterThanOrEqual(
            delta,
          );
          // The set-based write ran (see the file's comment).
          expect(Math.max(0, ...setRises.values()), `${what}: revisions`).toBeLessThanOrEqual(2);
          if (Math.max(0, ...oneRises.values()) > 2) discriminating++;
          refusals += set.results.filter((r) => r.status >= 400).length;
          written += set.results.filter((r) => r.status < 400).length;
          batchCount++;
        }
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
    console.info(
      `bulk equality: ${NUM_RUNS} runs, ${batchCount} batches, ${written} documents written, ${refusals} refused; ` +
        `${discriminating} batches where the revisions tell the paths apart`,
    );
    // The revision check told the paths apart in some batches, and the plan refused documents.
    expect(discriminating).toBeGreaterThan(batchCount / 4);
    expect(refusals).toBeGreaterThan(0);
  }, 300_000);
});
