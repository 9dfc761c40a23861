import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWindowApp } from '../../src/window/window-app.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The window server's own log, built as the application builds it, with its lines collected. */

let server: TestServer;
let app: FastifyInstance;
let baseUrl: string;
const logged: string[] = [];

beforeEach(async () => {
  logged.length = 0;
  server = await startServer({ setup: 'no-workspace' });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  });
  app = await buildWindowApp(server.app.windowDeps(), {
    logger: { level: 'info', stream },
    loopbackOnly: () => true,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterEach(async () => {
  await app.close();
  await server.stop();
});

/** GET with the path exactly as written (fetch would normalise /%ff). */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/`, { path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The log's request lines (one per request). */
function requestLines(): { path: string; status: number }[] {
  return logged
    .join('')
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { path: string; status: number });
}

describe("the window's request log", () => {
  it('masks secret query values as the REST monitor does, one line per request, never the raw URL', async () => {
    expect(await get('/ui/api/status?password=WINSECRET&lang=de&token=TOKSECRET')).toBe(401);
    expect(await get('/ui/api/session?api_key=KEYSECRET&secret=S3CRET')).toBe(200);
    // Refused before routing (no hook runs): logged all the same, masked all the same.
    expect(await get('/%ff?password=BADURLSECRET')).toBe(400);
    await expect.poll(() => requestLines().length).toBe(3);
    expect(requestLines()).toEqual([
      expect.objectContaining({ path: '/ui/api/status?password=***&lang=de&token=***', status: 401 }),
      expect.objectContaining({ path: '/ui/api/session?api_key=***&secret=***', status: 200 }),
      expect.objectContaining({ path: '/%ff?password=***', status: 400 }),
    ]);
    expect(logged.join('')).not.toMatch(/WINSECRET|TOKSECRET|KEYSECRET|S3CRET|BADURLSECRET/);
  });
});
