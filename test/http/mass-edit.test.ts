import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { expand, massEditRest, type MassEditReport } from './mass-edit.fixtures.js';

/**
 * Mass edits over REST (issue 36): each action and its effect read back, dryRun, the selection
 * (ids, filters, {} and includeVariants), what the change counter, ETags and updatedSince show,
 * rights and bad input (4xx in the envelope, nothing written).
 */
let server: TestServer;
let token: string;
let viewer: string;
const rest = () => massEditRest(server, () => token);

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(new Date()) });
  token = await server.login();
  await server.addUser('vera', 'VIEWER', 'viewer-password-1');
  viewer = await server.login('vera', 'viewer-password-1');
}, 120_000);
afterAll(() => server.stop());

let seq = 0;
/** A few products of their own for each test: a prefix q can select. */
async function products(count: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const prefix = `ME${++seq}X`;
  const ids = await rest().seed(
    Array.from({ length: count }, (_, i) => ({ supplierPid: `${prefix}-${i}`, ...extra(i) })),
  );
  return { prefix, ids };
}

const workspace = async () =>
  (
    await rest().call<{ active: boolean; changeCounter: number; changedAt: string }[]>(
      'GET',
      '/api/workspace',
    )
  ).body.data!.find((w) => w.active)!;
const etag = async (id: number) => (await rest().call('GET', `/api/product/${id}`)).headers.get('etag');
const texts = async (id: number, kind = 'short') =>
  (await rest().call<{ lang: string; value: string }[]>('GET', `/api/product/${id}/texts/${kind}`)).body
    .data!;
const features = async (id: number) =>
  (
    await rest().call<{ ftidref: string; funit: string | null; values: unknown[] }[]>(
      'GET',
      `/api/product/${id}/features`,
    )
  ).body.data!;

describe('mass edit actions', () => {
  it('setText sets the text of every selected product; products that have it already are not touched', async () => {
    const { ids } = await products(4, (i) => ({
      shortTexts: [{ lang: 'deu', value: i === 0 ? 'Neu' : `alt ${i}` }],
    }));
    const before = await Promise.all(ids.map(etag));
    const counter = (await workspace()).changeCounter;
    const job = await rest().run({
      select: { ids },
      action: { setText: { kind: 'short', lang: 'ger', value: 'Neu' } },
    });
    expect(job.state).toBe('succeeded');
    const report = job.report as unknown as MassEditReport;
    expect(report).toMatchObject({
      action: 'setText',
      selected: 4,
      changed: 3,
      unchanged: 1,
      missing: 0,
      partial: false,
    });
    expect(expand(report.changedIds)).toEqual(ids.slice(1));
    for (const id of ids) expect(await texts(id)).toEqual([{ lang: 'deu', value: 'Neu' }]);
    const after = await Promise.all(ids.map(etag));
    expect(after[0]).toBe(before[0]);
    for (let i = 1; i < 4; i++) expect(after[i]).not.toBe(before[i]);
    expect((await workspace()).changeCounter).toBeGreaterThan(counter);
  });

  it('setText of a long text in a new language adds it', async () => {
    const { ids } = await products(2);
    const job = await rest().run({
      select: { ids },
      action: { setText: { kind: 'long', lang: 'fra', value: 'Long' } },
    });
    expect(job.report).toMatchObject({ changed: 2, unchanged: 0 });
    for (const id of ids) expect(await texts(id, 'long')).toEqual([{ lang: 'fra', value: 'Long' }]);
  });

  it('setFeature adds or merges values and unit; removeFeature removes it where present', async () => {
    const { ids } = await products(3, (i) =>
      i === 0
        ? { features: [{ ftidref: 'ME-F1', funit: 'cm', values: [{ lang: 'eng', value: '5' }] }] }
        : i === 1
          ? { features: [{ ftidref: 'ME-F1', funit: 'mm', values: [{ lang: 'deu', value: '12' }] }] }
          : {},
    );
    const set = await rest().run({
      select: { ids },
      action: { setFeature: { ftidref: 'ME-F1', funit: 'mm', values: [{ lang: 'deu', value: '12' }] } },
    });
    expect(set.report).toMatchObject({ changed: 2, unchanged: 1 });
    expect(expand((set.report as unknown as MassEditReport).changedIds)).toEqual([ids[0], ids[2]]);
    expect((await features(ids[0]!))[0]).toMatchObject({
      ftidref: 'ME-F1',
      funit: 'mm',
      values: [
        { lang: 'deu', value: '12' },
        { lang: 'eng', value: '5' },
      ],
    });
    expect((await features(ids[2]!))[0]).toMatchObject({
      funit: 'mm',
      values: [{ lang: 'deu', value: '12' }],
    });
    const removed = await rest().run({
      select: { ids: ids.slice(1) },
      action: { removeFeature: { ftidref: 'ME-F1' } },
    });
    expect(removed.report).toMatchObject({ changed: 2, unchanged: 0 });
    expect(await features(ids[1]!)).toEqual([]);
    expect(await features(ids[2]!)).toEqual([]);
    expect(await features(ids[0]!)).toHaveLength(1);
  });

  it('assignGroup and unassignGroup move the products; those already there are not touched', async () => {
    const group = (await rest().call<{ id: number }>('POST', '/api/group', { name: `ME-G${seq}` })).body
      .data!;
    const { ids } = await products(3, (i) => (i === 0 ? { groupId: group.id } : {}));
    const members = async () =>
      (await rest().call<{ id: number }[]>('GET', `/api/group/${group.id}/products`)).body.data!.map(
        (p) => p.id,
      );
    const assigned = await rest().run({ select: { ids }, action: { assignGroup: { groupId: group.id } } });
    expect(assigned.report).toMatchObject({ changed: 2, unchanged: 1 });
    expect(await members()).toEqual(ids);
    const out = await rest().run({ select: { ids: ids.slice(0, 2) }, action: { unassignGroup: {} } });
    expect(out.report).toMatchObject({ changed: 2 });
    expect(await members()).toEqual([ids[2]]);
  });

  it('delete removes the products with their variants and records the deletions', async () => {
    const { prefix, ids } = await products(2);
    const [variant] = await rest().seed([{ supplierPid: `${prefix}-v`, masterSupplierPid: `${prefix}-0` }]);
    const since = (await workspace()).changedAt;
    const preview = await rest().call<{ count: number; variants: number; items: unknown[] }>(
      'POST',
      '/api/product/mass-edit',
      { select: { ids }, action: { delete: {} }, dryRun: true },
    );
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.data).toMatchObject({ count: 2, variants: 1 });
    expect(preview.body.data!.items[0]).toMatchObject({
      id: ids[0],
      before: { deleted: false, variants: 1 },
      after: { deleted: true, variants: 1 },
    });
    const job = await rest().run({ select: { ids }, action: { delete: {} } });
    expect(job.report).toMatchObject({ changed: 2, variantsDeleted: 1, missing: 0 });
    for (const id of [...ids, variant!])
      expect((await rest().call('GET', `/api/product/${id}`)).status).toBe(404);
    const deleted = await rest().call<{ id: number }[]>(
      'GET',
      `/api/product/deleted?since=${encodeURIComponent(since)}`,
    );
    expect(deleted.body.data!.map((d) => d.id).sort((a, b) => a - b)).toEqual(
      [...ids, variant!].sort((a, b) => a - b),
    );
  });
});

describe('selection', () => {
  it('selects by filter (q), with or without variants; {} selects every product', async () => {
    const { prefix, ids } = await products(3);
    const [variant] = await rest().seed([{ supplierPid: `W${seq}-v`, masterSupplierPid: `${prefix}-1` }]);
    const action = { setText: { kind: 'long', lang: 'eng', value: `sel ${prefix}` } };
    const plain = await rest().run({ select: { q: `${prefix}-` }, action });
    expect(expand((plain.report as unknown as MassEditReport).changedIds)).toEqual(ids);
    const withVariants = await rest().run({ select: { q: `${prefix}-`, includeVariants: true }, action });
    expect(withVariants.report).toMatchObject({ selected: 4, changed: 1, unchanged: 3 });
    expect(expand((withVariants.report as unknown as MassEditReport).changedIds)).toEqual([variant]);
    const all = await rest().call<{ count: number }>('POST', '/api/product/mass-edit', {
      select: {},
      action,
      dryRun: true,
    });
    const count = (await rest().call<unknown[]>('GET', '/api/product?all=true')).body.data!.length;
    expect(all.body.data!.count).toBe(count);
  });

  it('dryRun previews before and after and writes nothing', async () => {
    const { ids } = await products(7, (i) => ({ shortTexts: [{ lang: 'deu', value: `T${i}` }] }));
    const counter = (await workspace()).changeCounter;
    const tags = await Promise.all(ids.map(etag));
    const res = await rest().call<{
      count: number;
      items: { id: number; before: unknown; after: unknown; changes: boolean }[];
    }>('POST', '/api/product/mass-edit', {
      select: { ids },
      action: { setText: { kind: 'short', lang: 'deu', value: 'T0' } },
      dryRun: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data!.count).toBe(7);
    expect(res.body.data!.items).toHaveLength(5);
    expect(res.body.data!.items[0]).toMatchObject({ id: ids[0], before: 'T0', after: 'T0', changes: false });
    expect(res.body.data!.items[1]).toMatchObject({ id: ids[1], before: 'T1', after: 'T0', changes: true });
    expect((await workspace()).changeCounter).toBe(counter);
    expect(await Promise.all(ids.map(etag))).toEqual(tags);
  });

  it('delta sync by updatedSince delivers the changed products and not the unchanged ones', async () => {
    const { ids } = await products(3, (i) =>
      i === 0 ? { longTexts: [{ lang: 'deu', value: 'same' }] } : {},
    );
    server.clock.advance(1000);
    const since = (await workspace()).changedAt;
    server.clock.advance(1000);
    await rest().run({ select: { ids }, action: { setText: { kind: 'long', lang: 'deu', value: 'same' } } });
    const delta = await rest().call<{ id: number }[]>(
      'GET',
      // Just after the seed's stamp (updatedSince is inclusive); the edit is stamped a second later.
      `/api/product?all=true&updatedSince=${encodeURIComponent(new Date(Date.parse(since) + 1).toISOString())}`,
    );
    const changed = delta.body.data!.map((p) => p.id).filter((id) => ids.includes(id));
    expect(changed).toEqual(ids.slice(1));
  });
});

describe('rights and bad input', () => {
  it('a VIEWER is refused with 403 and nothing is written', async () => {
    const { ids } = await products(1);
    const counter = (await workspace()).changeCounter;
    for (const dryRun of [true, false]) {
      const res = await rest().call(
        'POST',
        '/api/product/mass-edit',
        { select: { ids }, action: { delete: {} }, dryRun },
        viewer,
      );
      expect([res.status, res.body.success, res.body.code]).toEqual([403, false, 'FORBIDDEN']);
    }
    const undo = await rest().call('POST', '/api/job/1/undo', undefined, viewer);
    expect(undo.status).toBe(403);
    expect((await workspace()).changeCounter).toBe(counter);
    expect((await rest().call('GET', `/api/product/${ids[0]}`)).status).toBe(200);
  });

  it('refuses every bad request before a job starts, in the envelope, writing nothing', async () => {
    const { ids } = await products(2);
    const jobsBefore = (await rest().call<unknown[]>('GET', '/api/job')).body.data!.length;
    const counter = (await workspace()).changeCounter;
    const text = { setText: { kind: 'short', lang: 'deu', value: 'x' } };
    const cases: [unknown, number, string][] = [
      [{ select: { ids }, action: { assignGroup: { groupId: 999_999 } } }, 404, 'GROUP_NOT_FOUND'],
      [{ select: { ids: [...ids, 999_999] }, action: text }, 404, 'PRODUCT_NOT_FOUND'],
      // Dense: resolved as a range of ids (product-grid.repository.ts), the id after the newest is no product.
      [{ select: { ids: [...ids, Math.max(...ids) + 1] }, action: text }, 404, 'PRODUCT_NOT_FOUND'],
      [
        { select: { ids }, action: { setText: { kind: 'short', lang: 'xx1', value: 'x' } } },
        400,
        'INVALID_LANGUAGE',
      ],
      [
        { select: { ids }, action: { setText: { kind: 'short', lang: 'qqq', value: 'x' } } },
        400,
        'INVALID_LANGUAGE',
      ],
      [{ select: { ids, q: 'a' }, action: text }, 400, 'VALIDATION_FAILED'],
      [{ select: { ids }, action: { ...text, delete: {} } }, 400, 'VALIDATION_FAILED'],
      [{ select: { ids }, action: {} }, 400, 'VALIDATION_FAILED'],
      [{ select: { ids } }, 400, 'VALIDATION_FAILED'],
      [{ select: { groupId: 999_999 }, action: text }, 404, 'GROUP_NOT_FOUND'],
      [{ select: { text: 'has' }, action: text }, 400, 'VALIDATION_FAILED'],
      [{ select: { ids }, action: { setFeature: { ftidref: '', values: [] } } }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, code] of cases) {
      for (const dryRun of [false, true]) {
        const res = await rest().call('POST', '/api/product/mass-edit', { ...(body as object), dryRun });
        expect([res.status, res.body.success, res.body.code], `${JSON.stringify(body)} ${res.text}`).toEqual([
          status,
          false,
          code,
        ]);
      }
    }
    expect((await rest().call<unknown[]>('GET', '/api/job')).body.data!.length).toBe(jobsBefore);
    expect((await workspace()).changeCounter).toBe(counter);
  });
});
