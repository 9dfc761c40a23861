import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { WindowClient } from '../helpers/window.js';

let server: TestServer;
let window: WindowClient;
beforeEach(async () => {
  server = await startServer({ window: true });
  window = new WindowClient(server);
  await window.login();
});
afterEach(async () => server.stop());

describe('PUT /ui/api/settings/rest', () => {
  it('names the field a refused value belongs to, so the window shows it there', async () => {
    const put = (port: number, host: string) =>
      window.request('PUT', '/settings/rest', { body: { enabled: true, port, host } });
    for (const port of [80, 99999]) {
      const res = await put(port, '127.0.0.1');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'port' });
    }
  });
});
