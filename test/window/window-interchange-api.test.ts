import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bmecatSample, featureCatalogue } from '../helpers/bmecat-samples.js';
import { ManualClock } from '../../src/domain/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient, type EventCollector } from '../helpers/window.js';

/**
 * The window's endpoints of File › Import BMEcat… and File › Export BMEcat… (src/window/routes/
 * import, job and export routes) and the `job` events of its push channel: the same import and
 * export as REST's, the same rights, refusals before a byte of the file is stored.
 */
interface Job {
  id: number;
  state: string;
  processed: number;
  createdBy: string;
  cancelRequested: boolean;
  input: Record<string, unknown>;
  report: { products: number; created: number; skipped: unknown[] } | null;
  error: { message: string; line: number | null; column: number | null } | null;
  read?: number;
}

const SAMPLE = readFileSync(bmecatSample('WEI_BMECat_1609801044.xml'));
const XML = { 'content-type': 'application/xml' };

let server: TestServer;
let window: WindowClient;
let streams: EventCollector[];
beforeEach(async () => {
  // Jobs' heartbeats carry the time of the process that runs them: the server's clock starts now.
  server = await startServer({ window: true, clock: new ManualClock(new Date()) });
  window = new WindowClient(server);
  streams = [];
});
afterEach(async () => {
  for (const stream of streams) stream.close();
  await server.stop();
});

function listen(client = window): EventCollector {
  const stream = client.events();
  streams.push(stream);
  return stream;
}

const upload = (
  body: string | Uint8Array,
  query = '',
  client = window,
  headers: Record<string, string> = XML,
) => client.request<Job>('POST', `/import${query}`, { raw: body, headers });

const ended = (id: number) => window.endedJob<Job>(id);

async function productPids(): Promise<string[]> {
  const token = await server.login();
  const res = await server.request<{ supplierPid: string }[]>('GET', '/api/product?all=true', { token });
  return res.body.data!.map((p) => p.supplierPid);
}

describe('File › Import BMEcat… on the server', () => {
  it('imports an uploaded file as a job whose start, progress and end are pushed to the window', async () => {
    await window.login();
    const events = listen();
    await events.waitFor((e) => e.event === 'status');
    const res = await upload(SAMPLE, '?name=weidmueller.xml&dryRun=false');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const job = res.body.data!;
    expect(job).toMatchObject({ createdBy: 'admin', input: { file: 'weidmueller.xml', mode: 'merge' } });
    const end = await events.waitFor((e) => e.event === 'job' && (e.data as Job).state !== 'running', 30_000);
    expect(end.data).toMatchObject({
      id: job.id,
      state: 'succeeded',
      processed: 1,
      read: 1,
      report: { products: 1, created: 1, skipped: [] },
    });
    const pushed = events.received.filter((e) => e.event === 'job').map((e) => e.data as Job);
    expect(pushed.every((j) => j.id === job.id)).toBe(true);
    expect(await ended(job.id)).toMatchObject({ state: 'succeeded', report: { created: 1 } });
    expect(await productPids()).toEqual(['1609801044']);
  }, 60_000);

  it('fails the job of a bad file with its line and column, writing nothing', async () => {
    await window.login();
    const res = await upload(
      '<?xml version="1.0"?>\n<BMECAT><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE></CATALOG></HEADER>\n' +
        '<T_NEW_CATALOG><PRODUCT><SUPPLIER_PID>X-1</SUPPLIER_PID></PRODUCT>\n<PRODUCT></T_NEW_CATALOG>',
    );
    expect(res.status).toBe(202);
    const job = await ended(res.body.data!.id);
    expect(job).toMatchObject({ state: 'failed', error: { line: 4, column: expect.any(Number) } });
    expect(await productPids()).toEqual([]);
  });

  it('cancels a running import: it ends cancelled, the window hears so, and nothing was written', async () => {
    await window.login();
    const events = listen();
    const res = await upload(featureCatalogue(20_000));
    expect(res.status).toBe(202);
    const id = res.body.data!.id;
    await events.waitFor((e) => e.event === 'job' && (e.data as Job).processed > 0, 30_000);
    const cancel = await window.request<Job>('POST', `/jobs/${id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.data).toMatchObject({ id, cancelRequested: true });
    await events.waitFor((e) => e.event === 'job' && (e.data as Job).cancelRequested);
    await events.waitFor((e) => e.event === 'job' && (e.data as Job).state === 'cancelled', 30_000);
    expect(await productPids()).toEqual([]);
    const again = await window.request('POST', `/jobs/${id}/cancel`);
    expect([again.status, again.body.code]).toEqual([409, 'JOB_FINISHED']);
  }, 60_000);

  it('tells a window that opens while an import runs about it, and only its own user’s jobs', async () => {
    await window.login();
    const res = await upload(featureCatalogue(20_000));
    const id = res.body.data!.id;
    const late = listen();
    const first = await late.waitFor((e) => e.event === 'job', 30_000);
    expect(first.data).toMatchObject({ id, state: 'running' });
    await window.request('POST', `/jobs/${id}/cancel`);
    await ended(id);
    // Another user logs in to the window (the first one's session ends): none of admin's jobs reach it.
    await server.addUser('eddy', 'EDITOR');
    const eddy = new WindowClient(server);
    await eddy.login('eddy', 'eddy-password');
    const theirs = listen(eddy);
    await theirs.waitFor((e) => e.event === 'status');
    // A REST import by admin on this instance, to its end: not eddy's to see.
    const token = await server.login();
    const restEnded = new Promise<number>((resolve) => {
      const stop = server.app.jobs.onEvent((event) => {
        if (event.type !== 'ended') return;
        stop();
        resolve(event.job.id);
      });
    });
    const rest = await fetch(`${server.baseUrl}/api/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...XML },
      body: SAMPLE,
    });
    expect(rest.status).toBe(202);
    expect(await restEnded).toBe(((await rest.json()) as { data: Job }).data.id);
    // eddy's own import: its end comes after anything the stream was sent of admin's job.
    const other = await upload(SAMPLE, '', eddy);
    expect(other.status).toBe(202);
    await theirs.waitFor((e) => e.event === 'job' && (e.data as Job).state === 'succeeded', 30_000);
    const seen = new Set(theirs.received.filter((e) => e.event === 'job').map((e) => (e.data as Job).id));
    expect([...seen]).toEqual([other.body.data!.id]);
    // Another user's job is not found; eddy may not cancel it either.
    expect((await eddy.request('GET', `/jobs/${id}`)).status).toBe(404);
  }, 60_000);

  it('refuses without a session, a VIEWER, another media type and unknown options, starting no job', async () => {
    expect((await upload(SAMPLE)).status).toBe(401);
    expect((await window.request('GET', '/jobs/1')).status).toBe(401);
    expect((await window.request('POST', '/jobs/1/cancel')).status).toBe(401);
    await window.login();
    const refused = [
      await upload('{}', '', window, { 'content-type': 'application/json' }),
      await upload('<x/>', '', window, { 'content-type': 'text/plain' }),
      await upload(new Uint8Array([60, 120, 47, 62]), '', window, {}),
    ];
    expect(refused.map((r) => [r.status, r.body.code])).toEqual([
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
    ]);
    expect(refused[0]!.body.error).toBe(
      'Request body must be application/xml or text/xml or text/csv or application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect((await upload('<x/>', '?mode=mirror')).body.code).toBe('VALIDATION_FAILED');
    // The window's CSRF guard: the custom header is required.
    const foreign = await window.request('POST', '/import', {
      raw: SAMPLE,
      headers: XML,
      windowHeader: false,
    });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'CSRF_REFUSED']);
    await server.addUser('vera', 'VIEWER');
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    const denied = await upload(SAMPLE, '', viewer);
    expect([denied.status, denied.body.code]).toEqual([403, 'FORBIDDEN']);
    // The right comes before the media type: a VIEWER learns nothing more.
    expect((await upload('{}', '', viewer, { 'content-type': 'application/json' })).status).toBe(403);
    const token = await server.login();
    expect((await server.request<unknown[]>('GET', '/api/job', { token })).body.data).toEqual([]);
  });
});

describe('File › Export BMEcat… on the server', () => {
  async function withProduct(): Promise<number> {
    const token = await server.login();
    const group = await server.request<{ id: number }>('POST', '/api/group', {
      token,
      body: { name: 'Bohrer' },
    });
    const product = await server.request<{ id: number }>('POST', '/api/product', {
      token,
      body: { supplierPid: 'B-1', name: 'Bohrer 5 mm' },
    });
    await server.request('POST', `/api/product`, { token, body: { supplierPid: 'OTHER-1', name: 'Hammer' } });
    await server.request('PUT', `/api/product/${product.body.data!.id}/texts/short/eng`, {
      token,
      body: { value: 'Drill 5 mm' },
    });
    await server.request('POST', `/api/group/${group.body.data!.id}/products`, {
      token,
      body: { productIds: [product.body.data!.id] },
    });
    return group.body.data!.id;
  }

  it('offers the catalogue’s languages, checks the options, and streams the file with its name', async () => {
    const groupId = await withProduct();
    await server.addUser('vera', 'VIEWER');
    // A read: a VIEWER exports.
    await window.login('vera', 'vera-password');
    expect((await window.request('GET', '/export/options')).body.data).toEqual({
      languages: ['deu', 'eng'],
      defaultLanguage: 'deu',
    });
    expect((await window.request('GET', '/export/check?format=2005.1')).body.data).toEqual({
      fileName: 'Test.xml',
    });
    const res = await window.request('GET', `/export?format=2005.1&languages=eng&groupId=${groupId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Test.xml"; filename*=UTF-8''Test.xml`,
    );
    expect(res.text).toContain('xmlns="http://www.bmecat.org/bmecat/2005.1"');
    expect(res.text).toContain('<SUPPLIER_PID>B-1</SUPPLIER_PID>');
    expect(res.text).toContain('<DESCRIPTION_SHORT lang="eng">Drill 5 mm</DESCRIPTION_SHORT>');
    expect(res.text).not.toContain('<DESCRIPTION_SHORT lang="deu">');
    // Only the group's products.
    expect(res.text).not.toContain('OTHER-1');
  });

  it('refuses an unknown group or language in the envelope, and answers nothing without a session', async () => {
    expect((await window.request('GET', '/export')).status).toBe(401);
    expect((await window.request('GET', '/export/check')).status).toBe(401);
    expect((await window.request('GET', '/export/options')).status).toBe(401);
    await window.login();
    const group = await window.request('GET', '/export/check?groupId=9999');
    expect([group.status, group.body.code]).toEqual([404, 'GROUP_NOT_FOUND']);
    const download = await window.request('GET', '/export?groupId=9999');
    expect([download.status, download.body.code]).toEqual([404, 'GROUP_NOT_FOUND']);
    const language = await window.request('GET', '/export/check?languages=xx1');
    expect([language.status, language.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const format = await window.request('GET', '/export?format=1.2');
    expect([format.status, format.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('reads and sets the catalogue header for an EDITOR; refuses a VIEWER, bad values and no session', async () => {
    const header = (client = window) =>
      client.request<Record<string, string | null>>('GET', '/export/header');
    const put = (body: unknown, client = window) =>
      client.request<Record<string, string | null>>('PUT', '/export/header', { body });
    expect((await header()).status).toBe(401);
    expect((await put({ catalogId: 'X' })).status).toBe(401);
    await window.login();
    const set = await put({ catalogId: 'CAT-1', supplierName: 'Beispiel GmbH' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const stored = {
      catalogId: 'CAT-1',
      catalogVersion: null,
      catalogName: null,
      supplierName: 'Beispiel GmbH',
      supplierId: null,
      supplierIdType: null,
    };
    expect(set.body.data).toEqual(stored);
    for (const [body, field] of [
      [{ catalogId: 7 }, 'catalogId'],
      [{ catalogId: 'X'.repeat(21) }, 'catalogId'],
      [{ catalogVersion: '1' }, 'catalogVersion'],
      [{ catalogId: 'OK', buyerId: 'B' }, undefined],
      [[], undefined],
    ] as const) {
      const refused = await put(body);
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_FAILED']);
      if (field) expect(refused.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await header()).body.data).toEqual(stored);

    // One user at a time in a pim's window: the VIEWER's login ends the admin's session.
    await server.addUser('vera', 'VIEWER');
    const viewer = new WindowClient(server);
    await viewer.login('vera', 'vera-password');
    expect((await header(viewer)).body.data).toEqual(stored);
    const denied = await put({ catalogId: 'MINE' }, viewer);
    expect([denied.status, denied.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await header(viewer)).body.data).toEqual(stored);
    // The session is demanded on the matched route, however its path is spelled.
    const odd = await fetch(`${server.windowUrl}/ui/%61pi/export/header`, {
      headers: { 'x-pim-window': '1' },
    });
    expect(odd.status).toBe(401);
  });

  it('refuses import and export while no workspace is open', async () => {
    await server.stop();
    server = await startServer({ window: true, setup: 'no-workspace' });
    window = new WindowClient(server);
    await window.login();
    expect((await upload(SAMPLE)).body.code).toBe('NO_WORKSPACE_OPEN');
    expect((await window.request('GET', '/export/check')).body.code).toBe('NO_WORKSPACE_OPEN');
    expect((await window.request('GET', '/export')).body.code).toBe('NO_WORKSPACE_OPEN');
  });
});
