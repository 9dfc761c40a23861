import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import {
  expand,
  massEditRest,
  type Job,
  type MassEditReport,
  type UndoReport,
} from '../http/mass-edit.fixtures.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient, type EventCollector } from '../helpers/window.js';

/**
 * The window's mass edit endpoints (src/window/routes/mass-edit.routes.ts): the preview, the job
 * and its undo, the same services as REST's with the desktop session's context: the result reads
 * the same over REST, the job's progress is pushed as `job` events, a VIEWER is refused.
 */
let server: TestServer;
let token: string;
let window: WindowClient;
const rest = () => massEditRest(server, () => token);

beforeAll(async () => {
  server = await startServer({ window: true, clock: new ManualClock(new Date()) });
  token = await server.login();
  await server.addUser('vera', 'VIEWER', 'viewer-password-1');
  window = new WindowClient(server);
  await window.login();
});
afterAll(() => server.stop());

let seq = 0;
async function products(count: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  const prefix = `WME${++seq}X`;
  const ids = await rest().seed(
    Array.from({ length: count }, (_, i) => ({ supplierPid: `${prefix}-${i}`, ...extra(i) })),
  );
  return { prefix, ids };
}

const ended = (id: number) => window.endedJob<Job>(id, 60_000);

const featureOf = async (id: number) =>
  (
    await rest().call<{ ftidref: string; funit: string | null; values: unknown[] }[]>(
      'GET',
      `/api/product/${id}/features`,
    )
  ).body.data!;

describe('the window mass edit', () => {
  it('previews the grid filters selection, runs it as a pushed job, and undoes it', async () => {
    const { prefix, ids } = await products(5, (i) =>
      i === 0 ? { features: [{ ftidref: 'W-F1', funit: 'cm', values: [{ lang: 'deu', value: '5' }] }] } : {},
    );
    const action = { setFeature: { ftidref: 'W-F1', funit: 'mm', values: [{ lang: 'deu', value: '12' }] } };
    const preview = await window.request<{
      count: number;
      variants: number;
      items: { id: number; changes: boolean }[];
    }>('POST', '/mass-edit', { body: { select: { q: prefix }, action, dryRun: true } });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.data!.count).toBe(5);
    expect(preview.body.data!.items.map((item) => item.id)).toEqual(ids);
    expect(await featureOf(ids[1]!)).toEqual([]);

    const events: EventCollector = window.events();
    try {
      await events.waitFor((e) => e.event === 'status');
      const res = await window.request<Job>('POST', '/mass-edit', {
        body: { select: { q: prefix }, action },
      });
      expect(res.status, res.text).toBe(202);
      const id = res.body.data!.id;
      expect(res.body.data).toMatchObject({ kind: 'mass-edit', createdBy: 'admin' });
      const end = await events.waitFor(
        (e) =>
          e.event === 'job' &&
          (e.data as Job).id === id &&
          (e.data as Job).state !== 'running' &&
          (e.data as Job).state !== 'queued',
        60_000,
      );
      expect(end.data).toMatchObject({ state: 'succeeded', processed: 5, total: 5 });
      const report = (end.data as Job).report as unknown as MassEditReport;
      expect(report).toMatchObject({
        action: 'setFeature',
        selected: 5,
        changed: 5,
        partial: false,
        undoable: true,
      });
      expect(expand(report.changedIds)).toEqual(ids);
      for (const pid of ids)
        expect(await featureOf(pid)).toMatchObject([
          { ftidref: 'W-F1', funit: 'mm', values: [{ lang: 'deu', value: '12' }] },
        ]);

      // Someone changes one product meanwhile: the undo leaves it alone and names it.
      const changed = await rest().call('PUT', `/api/product/${ids[2]}/texts/short/deu`, { value: 'mine' });
      expect(changed.status, changed.text).toBeLessThan(300);
      const undo = await window.request<Job>('POST', `/jobs/${id}/undo`);
      expect(undo.status, undo.text).toBe(202);
      expect(undo.body.data!.kind).toBe('mass-edit-undo');
      const undone = await ended(undo.body.data!.id);
      const undoReport = undone.report as unknown as UndoReport;
      expect(undoReport).toMatchObject({ massEditJobId: id, restored: 4, skippedCount: 1, partial: false });
      expect(undoReport.skipped.map((s) => s.id)).toEqual([ids[2]]);
      expect(await featureOf(ids[0]!)).toMatchObject([
        { funit: 'cm', values: [{ lang: 'deu', value: '5' }] },
      ]);
      expect(await featureOf(ids[1]!)).toEqual([]);
      expect(await featureOf(ids[2]!)).toMatchObject([
        { funit: 'mm', values: [{ lang: 'deu', value: '12' }] },
      ]);
      const again = await window.request('POST', `/jobs/${id}/undo`);
      expect([again.status, again.body.code]).toEqual([409, 'MASS_EDIT_UNDONE']);
    } finally {
      events.close();
    }
  }, 120_000);

  it('takes a selection of picked ids larger than the window body limit of other endpoints', async () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => 1_000_000 + i);
    const res = await window.request('POST', '/mass-edit', {
      body: { select: { ids }, action: { unassignGroup: {} }, dryRun: true },
    });
    // Read and validated (not 413): the ids are unknown products.
    expect(res.status, res.text.slice(0, 300)).not.toBe(413);
    expect(res.body.success).toBe(false);
    expect(res.body.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('refuses a VIEWER the preview, the edit and the undo (403), and bad input in the envelope', async () => {
    const { ids } = await products(2);
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'viewer-password-1');
    const body = { select: { ids }, action: { setText: { kind: 'short', lang: 'deu', value: 'x' } } };
    for (const dryRun of [true, false]) {
      const res = await viewer.request('POST', '/mass-edit', { body: { ...body, dryRun } });
      expect([res.status, res.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    // The viewer's login ended the admin's desktop session (one desktop user): log in again.
    await window.login();
    const job = await window.request<Job>('POST', '/mass-edit', { body });
    expect(job.status).toBe(202);
    await ended(job.body.data!.id);
    await viewer.login('vera', 'viewer-password-1');
    const undo = await viewer.request('POST', `/jobs/${job.body.data!.id}/undo`);
    expect(undo.status).toBe(403);
    await window.login();
    const bad = await window.request('POST', '/mass-edit', {
      body: { select: { ids }, action: { setText: { kind: 'short', lang: 'deu', value: 'x' }, delete: {} } },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const missing = await window.request('POST', '/jobs/999999/undo');
    expect(missing.status).toBe(404);
  });
});
