import { expect } from 'vitest';
import type { TestServer } from './server.js';

export interface RunningJob {
  id: number;
  state: string;
  processed: number;
}

/**
 * Another user's client while an import runs (import-concurrency and spreadsheet-import-concurrency):
 * `current` gives the file's server and token, read at each call (they are set in a hook).
 */
export function importClient(current: () => { server: TestServer; token: string }) {
  const jobOf = async (id: number): Promise<RunningJob> => {
    const { server, token } = current();
    return (await server.request<RunningJob>('GET', `/api/job/${id}`, { token })).body.data!;
  };
  return {
    jobOf,
    /** Posts a file to POST /api/import; resolves with the job once its first batch is done. */
    async runningImport(name: string, contentType: string, body: string): Promise<number> {
      const { server, token } = current();
      const res = await fetch(`${server.baseUrl}/api/import?name=${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });
      expect(res.status).toBe(202);
      const { id } = ((await res.json()) as { data: RunningJob }).data;
      await expect
        .poll(
          async () => {
            const job = await jobOf(id);
            return job.state === 'running' && job.processed > 0;
          },
          { timeout: 60_000, interval: 20 },
        )
        .toBe(true);
      return id;
    },
    async createProduct(supplierPid: string): Promise<number> {
      const { server, token } = current();
      const res = await server.request<{ id: number }>('POST', '/api/product', {
        token,
        body: { supplierPid, name: 'Vorher' },
      });
      expect(res.status).toBe(201);
      return res.body.data!.id;
    },
  };
}
