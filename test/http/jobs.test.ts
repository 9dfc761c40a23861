import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Application } from '../../src/app/application.js';
import { ManualClock } from '../../src/domain/clock.js';
import { listProducts } from '../../src/domain/products/product.service.js';
import { runCliAsync, spawnCli } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { bmecatSample, featureCatalogue } from '../helpers/bmecat-samples.js';

/**
 * Jobs over REST: a BMEcat import started with `pim import` on the data folder a running pim
 * serves is visible, cancellable and, cut short by a kill, reads as failed; nothing of a cancelled
 * or killed import is written.
 */
interface Job {
  id: number;
  kind: string;
  state: string;
  processed: number;
  createdBy: string;
  cancelRequested: boolean;
  input: Record<string, unknown>;
  report: { products: number; created: number } | null;
  error: { message: string; line: number | null } | null;
}

let server: TestServer;
let token: string;
beforeEach(async () => {
  // Jobs' heartbeats carry the time of the process that runs them: the server's clock starts now.
  server = await startServer({ clock: new ManualClock(new Date()) });
  token = await server.login();
});
afterEach(() => server.stop());

/** featureCatalogue(count) as a file of the server's data folder. */
function bigCatalogue(count: number): string {
  const file = join(server.dataDir, `big-${count}.xml`);
  writeFileSync(file, featureCatalogue(count));
  return file;
}

const jobs = async () => (await server.request<Job[]>('GET', '/api/job', { token })).body.data!;
const productCount = async () =>
  (await server.request<unknown[]>('GET', '/api/product?all=true', { token })).body.data!.length;

/** Starts `pim import FILE` and waits until its job has written its first batch. */
async function runningImport(file: string) {
  const cli = spawnCli(server.dataDir, ['import', file]);
  await expect
    .poll(async () => (await jobs()).find((j) => j.state === 'running' && j.processed > 0)?.id, {
      timeout: 30_000,
    })
    .toBeDefined();
  return { cli, job: (await jobs())[0]! };
}

describe('jobs of imports', () => {
  it('lists a finished import with its report; a user who did not start it sees none of it', async () => {
    const file = bigCatalogue(3);
    const result = await runCliAsync(server.dataDir, ['import', file]);
    expect(result.code, result.stderr).toBe(0);
    const [job] = await jobs();
    expect(job).toMatchObject({
      kind: 'bmecat-import',
      state: 'succeeded',
      processed: 3,
      createdBy: 'system',
      cancelRequested: false,
      input: { file: 'big-3.xml', dryRun: false },
      report: { products: 3, created: 3 },
      error: null,
    });
    expect((await server.request<Job>('GET', `/api/job/${job!.id}`, { token })).body.data).toEqual(job);
    const cancel = await server.request('POST', `/api/job/${job!.id}/cancel`, { token });
    expect(cancel.status).toBe(409);
    expect(cancel.body).toMatchObject({ code: 'JOB_FINISHED' });
    await server.addUser('eddy', 'EDITOR');
    const eddy = await server.login('eddy', 'eddy-password');
    expect((await server.request('GET', '/api/job', { token: eddy })).body.data).toEqual([]);
    const hidden = await server.request('GET', `/api/job/${job!.id}`, { token: eddy });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await server.request('GET', '/api/job/999999', { token })).status).toBe(404);
  });

  it('cancels a running import: the job ends cancelled and nothing of it was written', async () => {
    const { cli, job } = await runningImport(bigCatalogue(20_000));
    const cancel = await server.request<Job>('POST', `/api/job/${job.id}/cancel`, { token });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body.data).toMatchObject({ state: 'running', cancelRequested: true });
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain(`pim: job ${job.id} was cancelled: nothing was imported`);
    expect((await server.request<Job>('GET', `/api/job/${job.id}`, { token })).body.data).toMatchObject({
      state: 'cancelled',
      cancelRequested: false,
    });
    expect(await productCount()).toBe(0);
  });

  it('reads an import whose process was killed as failed, with nothing written', async () => {
    const { cli, job } = await runningImport(bigCatalogue(20_000));
    cli.child.kill('SIGKILL');
    await cli.exited;
    // No heartbeat for 30 s: the process that ran it is gone.
    server.clock.set(new Date(Date.now() + 31_000));
    expect((await server.request<Job>('GET', `/api/job/${job.id}`, { token })).body.data).toMatchObject({
      state: 'failed',
      error: { message: expect.stringMatching(/cut short/) },
    });
    expect(await productCount()).toBe(0);
  });
});

describe('POST /api/import', () => {
  const SAMPLE = bmecatSample('WEI_BMECat_1609801044.xml');

  async function upload(body: string | Buffer, query = '', headers: Record<string, string> = {}, as = token) {
    const res = await fetch(`${server.baseUrl}/api/import${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/xml', ...headers },
      body,
    });
    return {
      status: res.status,
      location: res.headers.get('location'),
      body: (await res.json()) as Record<string, unknown>,
    };
  }

  const ended = async (id: number) => {
    let job: Job | undefined;
    await expect
      .poll(async () => {
        job = (await server.request<Job>('GET', `/api/job/${id}`, { token })).body.data;
        return job?.state;
      })
      .not.toMatch(/^(queued|running)$/);
    return job!;
  };

  it('takes the file as the body, answers 202 with the job, and the job imports it', async () => {
    const res = await upload(readFileSync(SAMPLE), '?name=weidmueller.xml');
    expect(res.status).toBe(202);
    const job = res.body.data as Job;
    expect(res.location).toBe(`/api/job/${job.id}`);
    expect(job).toMatchObject({
      kind: 'bmecat-import',
      createdBy: 'admin',
      input: { file: 'weidmueller.xml' },
    });
    expect(await ended(job.id)).toMatchObject({ state: 'succeeded', report: { products: 1, created: 1 } });
    const products = await server.request<{ supplierPid: string }[]>('GET', '/api/product?all=true', {
      token,
    });
    expect(products.body.data!.map((p) => p.supplierPid)).toEqual(['1609801044']);
  });

  it('fails the job of a bad file with its line and column, writing nothing', async () => {
    const res = await upload(
      '<?xml version="1.0"?>\n<BMECAT><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>\n<T_NEW_CATALOG><PRODUCT>',
    );
    expect(res.status).toBe(202);
    expect(await ended((res.body.data as Job).id)).toMatchObject({
      state: 'failed',
      error: { message: expect.stringMatching(/not well-formed/), line: 3 },
    });
    expect(await productCount()).toBe(0);
  });

  it('refuses what is not XML (415), unknown options (400) and a VIEWER (403), starting no job', async () => {
    expect((await upload('{}', '', { 'content-type': 'application/json' })).body).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
    expect((await upload('<x/>', '?mode=mirror')).body).toMatchObject({ code: 'VALIDATION_FAILED' });
    await server.addUser('vera', 'VIEWER');
    expect((await upload('<x/>', '', {}, await server.login('vera', 'vera-password'))).status).toBe(403);
    expect(await jobs()).toEqual([]);
  });

  it('refuses a body declared over 2 GiB with 413 in the envelope, before reading it, starting no job', async () => {
    // The connection stays open (no half-close): the answer must come from the declared length alone.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${server.baseUrl}/api/import`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/xml',
            'content-length': String(2 * 1024 ** 3 + 1),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            request.destroy();
            resolve({ status: res.statusCode ?? 0, body });
          });
        },
      );
      request.on('error', reject);
      request.write('<BMECAT>');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'BODY_TOO_LARGE' });
    expect(await jobs()).toEqual([]);
  });

  it('ends a running import as failed when pim stops, with nothing written', async () => {
    const res = await upload(readFileSync(bigCatalogue(20_000)));
    const id = (res.body.data as Job).id;
    // The first batch on PostgreSQL under load takes seconds (as in runningImport).
    await expect
      .poll(
        async () => (await server.request<Job>('GET', `/api/job/${id}`, { token })).body.data!.processed,
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThan(0);
    await server.app.stop();
    const again = await Application.open({ dataDir: server.dataDir });
    try {
      expect(await again.jobs.get(again.ownerContext(), id)).toMatchObject({
        state: 'failed',
        error: { message: 'pim stopped before the job ended: nothing was written' },
      });
      await again.workspaces.reopenLast();
      expect(await listProducts(again.ownerContext(), { all: true })).toEqual([]);
    } finally {
      await again.stop();
    }
  }, 60_000);
});
