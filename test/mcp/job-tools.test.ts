import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, ok } from '../helpers/mcp.js';
import { fail, sessionPerTest } from '../helpers/mcp-session.js';
import { bmecatSample } from '../helpers/bmecat-samples.js';

/** import_bmecat and get_job: an agent imports a supplier's file and follows the job, as REST's. */
const SAMPLE = bmecatSample('WEI_BMECat_7760056069.xml');

const { open } = sessionPerTest();

interface Job {
  id: number;
  state: string;
  report: { products: number; created: number } | null;
  error: { message: string } | null;
}

describe('import_bmecat and get_job', () => {
  it('imports a file of this machine as a job that get_job follows to its report, and REST sees it', async () => {
    const s = await open();
    const started = await ok<Job>(s.client, 'import_bmecat', { path: SAMPLE });
    expect(started).toMatchObject({ state: 'running', report: null });
    let job: Job | undefined;
    await expect
      .poll(async () => {
        job = await ok<Job>(s.client, 'get_job', { id: started.id });
        return job.state;
      })
      .toBe('succeeded');
    expect(job!.report).toMatchObject({ products: 1, created: 1 });
    expect((await s.rest<Job>('GET', `/api/job/${started.id}`)).body.data).toEqual(job);
    const products = await s.rest<{ supplierPid: string }[]>('GET', '/api/product?all=true');
    expect(products.body.data!.map((p) => p.supplierPid)).toEqual(['7760056069']);
  });

  it('refuses a relative path and a path that is no file, starting no job; get_job of no job is JOB_NOT_FOUND', async () => {
    const s = await open();
    expect(await fail(s.client, 'import_bmecat', { path: 'catalogue.xml' })).toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 400,
    });
    expect((await fail(s.client, 'import_bmecat', { path: '/nonexistent/catalogue.xml' })).error).toMatch(
      /is not a file pim can read/,
    );
    expect(await fail(s.client, 'get_job', { id: 1 })).toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
    expect((await s.rest<unknown[]>('GET', '/api/job')).body.data).toEqual([]);
    // A file that is not BMEcat: the job fails with where and why, nothing written.
    const started = await ok<Job>(s.client, 'import_bmecat', {
      path: join(import.meta.dirname, 'job-tools.test.ts'),
    });
    await expect
      .poll(async () => (await ok<Job>(s.client, 'get_job', { id: started.id })).state)
      .toBe('failed');
    expect((await call<Job>(s.client, 'get_job', { id: started.id })).data.error!.message).toMatch(
      /not well-formed/,
    );
  });
});

describe('export_bmecat', () => {
  it('exports the open workspace into a new file of this machine as a job, and never replaces a file', async () => {
    const s = await open();
    const dir = mkdtempSync(join(tmpdir(), 'pim-mcp-export-'));
    try {
      const imported = await ok<Job>(s.client, 'import_bmecat', { path: SAMPLE });
      await expect
        .poll(async () => (await ok<Job>(s.client, 'get_job', { id: imported.id })).state)
        .toBe('succeeded');
      const path = join(dir, 'out.xml');
      const started = await ok<Job>(s.client, 'export_bmecat', { path, format: '2005.1' });
      let job: Job | undefined;
      await expect
        .poll(async () => {
          job = await ok<Job>(s.client, 'get_job', { id: started.id });
          return job.state;
        })
        .toBe('succeeded');
      expect(job!.report).toMatchObject({ products: 1, format: '2005.1', problemCount: 0 });
      expect(readFileSync(path, 'utf8')).toContain('<SUPPLIER_PID>7760056069</SUPPLIER_PID>');
      // An existing file: refused, left as it is, no job started.
      const other = join(dir, 'taken.xml');
      writeFileSync(other, 'mine');
      expect(await fail(s.client, 'export_bmecat', { path: other })).toMatchObject({
        code: 'CONFLICT',
        status: 409,
      });
      expect(readFileSync(other, 'utf8')).toBe('mine');
      expect(await fail(s.client, 'export_bmecat', { path: 'out.xml' })).toMatchObject({ status: 400 });
      expect((await fail(s.client, 'export_bmecat', { path: join(dir, 'no', 'x.xml') })).error).toMatch(
        /its folder does not exist/,
      );
      expect(await fail(s.client, 'export_bmecat', { path: join(dir, 'g.xml'), groupId: 99 })).toMatchObject({
        status: 404,
      });
      expect(existsSync(join(dir, 'g.xml'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
