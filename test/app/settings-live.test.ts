import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { apiRequest, pollUntil, refusesConnections } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('settings saved by the CLI take effect in the running application', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer({ setup: 'no-workspace' });
  });
  afterEach(() => server.stop());

  it('rest.enabled false stops the REST server, true starts it again, without a restart', async () => {
    const port = server.app.rest.address()!.port;
    const token = await server.login();
    expect((await server.request('GET', '/api/workspace', { token })).status).toBe(200);

    const off = await runCliAsync(server.dataDir, ['settings', 'set', 'rest.enabled', 'false']);
    expect(off.code).toBe(0);
    await pollUntil('the port refuses connections', () => refusesConnections(port));
    expect(server.app.rest.address()).toBeUndefined();

    const on = await runCliAsync(server.dataDir, ['settings', 'set', 'rest.enabled', 'true']);
    expect(on.code).toBe(0);
    await pollUntil('the REST server is back', () => server.app.rest.address() !== undefined);
    // The test run listens on any free port, so it may come back on another one.
    const baseUrl = `http://127.0.0.1:${server.app.rest.address()!.port}`;
    const res = await apiRequest(baseUrl, 'GET', '/api/workspace', { token });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });
});
