import { describe, expect, it } from 'vitest';
import { call, connectHttp, ok } from '../helpers/mcp.js';
import { asToolError, fail, sessionPerTest } from '../helpers/mcp-session.js';

/** mass_edit, get_job and undo_mass_edit: an agent previews, runs, follows and undoes a mass edit, as REST. */
const { open, cleanups } = sessionPerTest();

interface Job {
  id: number;
  kind: string;
  state: string;
  report: Record<string, unknown> | null;
}

describe('mass_edit and undo_mass_edit', () => {
  it(
    'previews, runs as a job get_job follows, and undoes; REST sees the same',
    { timeout: 120_000 },
    async () => {
      const s = await open();
      const seeded = await s.rest('POST', '/api/product/bulk', [
        { supplierPid: 'A-1', shortTexts: [{ lang: 'deu', value: 'alt' }] },
        { supplierPid: 'A-2' },
      ]);
      expect(seeded.status, seeded.text).toBe(200);
      const ids = (await s.rest<{ id: number }[]>('GET', '/api/product?all=true')).body.data!.map(
        (p) => p.id,
      );
      const request = {
        select: { q: 'A-' },
        action: { setText: { kind: 'short', lang: 'deu', value: 'neu' } },
      };
      const { preview } = await ok<{
        preview: { count: number; items: { before: unknown; after: unknown }[] };
      }>(s.client, 'mass_edit', { ...request, dryRun: true });
      expect(preview.count).toBe(2);
      expect(preview.items.map((i) => [i.before, i.after])).toEqual([
        ['alt', 'neu'],
        [null, 'neu'],
      ]);
      const { job: started } = await ok<{ job: Job }>(s.client, 'mass_edit', request);
      expect(started.kind).toBe('mass-edit');
      let job: Job | undefined;
      await expect
        .poll(async () => {
          job = await ok<Job>(s.client, 'get_job', { id: started.id });
          return job.state;
        })
        .toBe('succeeded');
      expect(job!.report).toMatchObject({ changed: 2, changedIds: [[ids[0], ids[1]]], partial: false });
      expect((await s.rest<Job>('GET', `/api/job/${started.id}`)).body.data).toEqual(job);
      const texts = async (id: number) =>
        (await s.rest<unknown[]>('GET', `/api/product/${id}/texts/short`)).body.data;
      expect(await texts(ids[0]!)).toEqual([{ lang: 'deu', value: 'neu' }]);

      const undo = await ok<Job>(s.client, 'undo_mass_edit', { jobId: started.id });
      expect(undo.kind).toBe('mass-edit-undo');
      await expect
        .poll(async () => (await ok<Job>(s.client, 'get_job', { id: undo.id })).state)
        .toBe('succeeded');
      expect(await texts(ids[0]!)).toEqual([{ lang: 'deu', value: 'alt' }]);
      expect(await texts(ids[1]!)).toEqual([]);
      expect(await fail(s.client, 'undo_mass_edit', { jobId: started.id })).toMatchObject({
        code: 'MASS_EDIT_UNDONE',
        status: 409,
      });
    },
  );

  it(
    'refuses a VIEWER (403, as REST) and bad input (as REST), writing nothing',
    { timeout: 120_000 },
    async () => {
      const s = await open();
      await s.rest('POST', '/api/product', { supplierPid: 'B-1' });
      await s.server.addUser('v', 'VIEWER');
      const viewerToken = await s.server.login('v', 'v-password');
      const viewer = await connectHttp(s.server.baseUrl, viewerToken);
      cleanups.push(() => viewer.close());
      expect((await viewer.listTools()).tools.map((t) => t.name)).not.toContain('mass_edit');
      const body = { select: {}, action: { delete: {} } };
      const error = await fail(viewer, 'mass_edit', body);
      expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403 });
      expect(error).toEqual(
        asToolError(await s.server.request('POST', '/api/product/mass-edit', { token: viewerToken, body })),
      );
      const bad = { select: {}, action: { assignGroup: { groupId: 4242 } } };
      expect(await fail(s.client, 'mass_edit', bad)).toEqual(
        asToolError(await s.rest('POST', '/api/product/mass-edit', bad)),
      );
      expect((await call(s.client, 'mass_edit', { select: {}, action: {} })).isError).toBe(true);
      expect((await s.rest<unknown[]>('GET', '/api/product?all=true')).body.data).toHaveLength(1);
      expect((await s.rest<unknown[]>('GET', '/api/job')).body.data).toEqual([]);
    },
  );
});
