import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

describe('smoke', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('logs in and lists workspaces', async () => {
    const token = await server.login();
    const res = await server.request('GET', '/api/workspace', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: [expect.objectContaining({ name: 'Test', active: true })],
    });
  });
});
