import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { activeWorkspacePlace, holdWriteLock } from '../helpers/lock-holder.js';
import { startServer, type TestServer } from '../helpers/server.js';
import {
  expand,
  massEditRest,
  type Job,
  type MassEditReport,
  type UndoReport,
} from './mass-edit.fixtures.js';

/**
 * Undo of mass edits over REST (issue 36): values, features, groups and deleted products come
 * back; a product changed meanwhile is left alone and named; undo is refused where it cannot be.
 * And a mass edit cancelled halfway: what it leaves is exactly what its report names.
 */
let server: TestServer;
let token: string;
let editor: string;
const rest = () => massEditRest(server, () => token);

beforeAll(async () => {
  server = await startServer({ clock: new ManualClock(new Date()) });
  token = await server.login();
  await server.addUser('eddy', 'EDITOR');
  editor = await server.login('eddy', 'eddy-password');
}, 120_000);
afterAll(() => server.stop());

let seq = 0;
async function products(count: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const prefix = `UN${++seq}X`;
  const ids = await rest().seed(
    Array.from({ length: count }, (_, i) => ({ supplierPid: `${prefix}-${i}`, ...extra(i) })),
  );
  return { prefix, ids };
}

const sheet = async (id: number) => {
  const res = await rest().call<Record<string, unknown>>('GET', `/api/product/${id}/sheet`);
  expect(res.status, res.text).toBe(200);
  const { updatedAt: _u, ...kept } = res.body.data!;
  return kept;
};

describe('undo', () => {
  it('restores texts and leaves a product changed meanwhile alone, naming it', async () => {
    const { prefix, ids } = await products(3, (i) =>
      i < 2 ? { shortTexts: [{ lang: 'deu', value: `alt ${i}` }] } : {},
    );
    const edit = await rest().run({
      select: { ids },
      action: { setText: { kind: 'short', lang: 'deu', value: 'neu' } },
    });
    // Someone else changes product 1 after the edit.
    const put = await rest().call('PUT', `/api/product/${ids[1]}/texts/short/deu`, { value: 'mine' });
    expect(put.status, put.text).toBe(200);
    const undo = await rest().undo(edit.id);
    expect(undo).toMatchObject({ kind: 'mass-edit-undo', state: 'succeeded', input: { jobId: edit.id } });
    const report = undo.report as unknown as UndoReport;
    expect(report).toMatchObject({ massEditJobId: edit.id, restored: 2, skippedCount: 1, partial: false });
    expect(expand(report.restoredIds)).toEqual([ids[0], ids[2]]);
    expect(report.skipped).toEqual([
      { id: ids[1], supplierPid: `${prefix}-1`, reason: 'changed by someone else since the mass edit' },
    ]);
    const short = async (id: number) =>
      (await rest().call('GET', `/api/product/${id}/texts/short`)).body.data;
    expect(await short(ids[0]!)).toEqual([{ lang: 'deu', value: 'alt 0' }]);
    expect(await short(ids[1]!)).toEqual([{ lang: 'deu', value: 'mine' }]);
    expect(await short(ids[2]!)).toEqual([]);
    const again = await rest().call('POST', `/api/job/${edit.id}/undo`);
    expect([again.status, again.body.code]).toEqual([409, 'MASS_EDIT_UNDONE']);
    const ofUndo = await rest().call('POST', `/api/job/${undo.id}/undo`);
    expect([ofUndo.status, ofUndo.body.code]).toEqual([409, 'JOB_NOT_MASS_EDIT']);
  });

  it('restores features, groups and deleted products (with variants and parts) as they were', async () => {
    const g1 = (await rest().call<{ id: number }>('POST', '/api/group', { name: `UG1-${seq}` })).body.data!;
    const g2 = (await rest().call<{ id: number }>('POST', '/api/group', { name: `UG2-${seq}` })).body.data!;
    const { prefix, ids } = await products(3, (i) => ({
      groupId: i === 0 ? g1.id : null,
      shortTexts: [{ lang: 'deu', value: `Name ${i}` }],
      longTexts: [{ lang: 'eng', value: `Long ${i}` }],
      features: [
        { ftidref: 'UF-A', funit: 'mm', values: [{ lang: 'deu', value: `${i}` }] },
        { ftidref: 'UF-B', values: [{ lang: 'eng', value: 'b' }] },
      ],
      keywords: [
        { lang: 'deu', value: 'k1' },
        { lang: 'deu', value: 'k2' },
      ],
    }));
    await rest().seed([
      {
        supplierPid: `${prefix}-v`,
        masterSupplierPid: `${prefix}-0`,
        shortTexts: [{ lang: 'deu', value: 'Var' }],
      },
    ]);
    const before = await Promise.all(ids.map(sheet));

    for (const action of [
      { setFeature: { ftidref: 'UF-A', funit: 'cm', values: [{ lang: 'eng', value: 'x' }] } },
      { removeFeature: { ftidref: 'UF-B' } },
      { assignGroup: { groupId: g2.id } },
      { unassignGroup: {} },
    ]) {
      const edit = await rest().run({ select: { ids }, action });
      expect(edit.state, JSON.stringify(edit)).toBe('succeeded');
      const undo = await rest().undo(edit.id);
      expect(undo.report, JSON.stringify(action)).toMatchObject({ skippedCount: 0, partial: false });
      expect(await Promise.all(ids.map(sheet)), JSON.stringify(action)).toEqual(before);
    }

    const variantsBefore = (await rest().call('GET', `/api/product/${ids[0]}/variants`)).body.data;
    const deleted = await rest().run({ select: { ids }, action: { delete: {} } });
    expect(deleted.report).toMatchObject({ changed: 3, variantsDeleted: 1 });
    const undo = await rest().undo(deleted.id);
    expect(undo.report).toMatchObject({ restored: 3, skippedCount: 0, lost: [] });
    const after = await Promise.all(ids.map(sheet));
    expect(after.map(({ revision: _r, ...s }) => s)).toEqual(before.map(({ revision: _r, ...s }) => s));
    const variantsAfter = (
      await rest().call<Record<string, unknown>[]>('GET', `/api/product/${ids[0]}/variants`)
    ).body.data!;
    expect(variantsAfter.map(({ updatedAt: _u, ...v }) => v)).toEqual(
      (variantsBefore as Record<string, unknown>[]).map(({ updatedAt: _u, ...v }) => v),
    );
  });

  it('refuses the undo of a job that is not a mass edit, of one that changed nothing, and of no job', async () => {
    const { ids } = await products(1, () => ({ shortTexts: [{ lang: 'deu', value: 'same' }] }));
    const nothing = await rest().run({
      select: { ids },
      action: { setText: { kind: 'short', lang: 'deu', value: 'same' } },
    });
    expect(nothing.report).toMatchObject({ changed: 0, unchanged: 1, undoable: false });
    const refused = await rest().call('POST', `/api/job/${nothing.id}/undo`);
    expect([refused.status, refused.body.success, refused.body.code]).toEqual([
      409,
      false,
      'NOTHING_TO_UNDO',
    ]);
    const none = await rest().call('POST', '/api/job/999999/undo');
    expect([none.status, none.body.code]).toEqual([404, 'JOB_NOT_FOUND']);
  });
});

describe("cancel halfway, and another program's lock", () => {
  it('keeps the chunks committed, exactly those its report names, and the undo restores them', async () => {
    const count = 3_000;
    const { prefix, ids } = await products(count);
    const ftidref = `UC-${prefix}`;
    const action = { setFeature: { ftidref, values: [{ lang: 'deu', value: '1' }] } };
    // Another program holds the workspace's write lock: the job waits for it at its first chunk
    // (a job waits out a lock where a request gives up after one wait), so Cancel comes while the
    // first of its three chunks is under way, whatever the machine's speed.
    const holder = await holdWriteLock(await activeWorkspacePlace(server, token));
    let id: number;
    try {
      const running = await rest().call<Job>('POST', '/api/product/mass-edit', {
        select: { q: `${prefix}-` },
        action,
      });
      expect(running.status, running.text).toBe(202);
      id = running.body.data!.id;
      await expect
        .poll(async () => (await rest().call<Job>('GET', `/api/job/${id}`)).body.data!.total)
        .toBe(count);
      const cancel = await rest().call<Job>('POST', `/api/job/${id}/cancel`);
      expect(cancel.status, cancel.text).toBe(200);
      expect(cancel.body.data!.cancelRequested).toBe(true);
    } finally {
      await holder.release();
    }
    // A single edit by another user while the chunk under way commits is answered, not refused.
    const single = await rest().call(
      'PUT',
      `/api/product/${ids[count - 1]}/texts/short/deu`,
      { value: 'single' },
      editor,
    );
    expect(single.status, single.text).toBe(200);
    const job = await rest().settle(id);
    expect(job.state).toBe('cancelled');
    const report = job.report as unknown as MassEditReport;
    expect(report).toMatchObject({ partial: true, undoable: true, selected: count });
    // The chunk under way when Cancel came (1,000 products in id order) committed; no other began.
    expect(report.changed).toBe(1000);
    // Chunks go in id order: exactly the first `changed` products, and nothing else, have the feature.
    expect(expand(report.changedIds)).toEqual(ids.slice(0, report.changed));
    const having = await rest().call<{ count: number; items: { id: number }[] }>(
      'POST',
      '/api/product/mass-edit',
      {
        select: { ftidref, feature: 'has' },
        action: { delete: {} },
        dryRun: true,
      },
    );
    expect(having.body.data!.count).toBe(report.changed);
    const undo = await rest().undo(id);
    expect(undo.report).toMatchObject({ restored: report.changed, skippedCount: 0, partial: false });
    const left = await rest().call<{ count: number }>('POST', '/api/product/mass-edit', {
      select: { ftidref, feature: 'has' },
      action: { delete: {} },
      dryRun: true,
    });
    expect(left.body.data!.count).toBe(0);
  }, 180_000);

  it("waits out another program's write lock held longer than a request waits, then runs to the end", async () => {
    const { prefix, ids } = await products(3);
    const holder = await holdWriteLock(await activeWorkspacePlace(server, token));
    let id: number;
    try {
      const running = await rest().call<Job>('POST', '/api/product/mass-edit', {
        select: { q: `${prefix}-` },
        action: { setText: { kind: 'short', lang: 'deu', value: 'gewartet' } },
      });
      expect(running.status, running.text).toBe(202);
      id = running.body.data!.id;
      // A request waits once and gives up (nothing written): by then the job has waited as long.
      const put = await rest().call('PUT', `/api/product/${ids[0]}/texts/short/eng`, { value: 'refused' });
      expect([put.status, put.body.code]).toEqual([503, 'DATABASE_BUSY']);
      const job = (await rest().call<Job>('GET', `/api/job/${id}`)).body.data!;
      expect([job.state, job.processed, job.total]).toEqual(['running', 0, 3]);
    } finally {
      await holder.release();
    }
    const job = await rest().settle(id);
    expect(job.state).toBe('succeeded');
    expect((job.report as unknown as MassEditReport).changed).toBe(3);
  }, 60_000);
});
