import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

/** Shared helpers of the mass-edit tests over REST (mass-edit*.test.ts). */

export interface Job {
  id: number;
  kind: string;
  state: string;
  processed: number;
  total: number | null;
  cancelRequested: boolean;
  input: Record<string, unknown>;
  report: Record<string, unknown> | null;
  error: { message: string; code: string | null } | null;
}

export interface MassEditReport {
  action: string;
  selected: number;
  changed: number;
  changedIds: [number, number][];
  unchanged: number;
  missing: number;
  variantsDeleted: number;
  partial: boolean;
  undoable: boolean;
}

export interface UndoReport {
  massEditJobId: number;
  restored: number;
  restoredIds: [number, number][];
  skipped: { id: number; supplierPid: string; reason: string }[];
  skippedCount: number;
  lost: string[];
  partial: boolean;
}

export function massEditRest(server: TestServer, token: () => string) {
  const call = <T = unknown>(method: string, path: string, body?: unknown, tok = token()) =>
    server.request<T>(method, path, { token: tok, body });

  /** Creates products through the bulk upsert; returns their ids in the order given. */
  async function seed(documents: Record<string, unknown>[]): Promise<number[]> {
    for (let i = 0; i < documents.length; i += 1000) {
      const res = await call<{ status: number }[]>('POST', '/api/product/bulk', documents.slice(i, i + 1000));
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.data!.filter((r) => r.status >= 300),
        res.text.slice(0, 500),
      ).toEqual([]);
    }
    const all = await call<{ id: number; supplierPid: string }[]>('GET', '/api/product?all=true');
    const byPid = new Map(all.body.data!.map((p) => [p.supplierPid, p.id]));
    return documents.map((d) => byPid.get(d.supplierPid as string)!);
  }

  /** Waits until the job has ended (a condition polled, no fixed sleep). */
  async function settle(id: number, tok = token()): Promise<Job> {
    let job: Job | undefined;
    await expect
      .poll(
        async () => {
          job = (await call<Job>('GET', `/api/job/${id}`, undefined, tok)).body.data;
          return job?.state;
        },
        { timeout: 60_000, interval: 20 },
      )
      .toMatch(/succeeded|failed|cancelled/);
    return job!;
  }

  /** Starts a mass edit (202) and waits for its end. */
  async function run(body: unknown, tok = token()): Promise<Job> {
    const res = await call<Job>('POST', '/api/product/mass-edit', body, tok);
    expect(res.status, res.text).toBe(202);
    expect(res.headers.get('location')).toBe(`/api/job/${res.body.data!.id}`);
    return settle(res.body.data!.id, tok);
  }

  async function undo(jobId: number, tok = token()): Promise<Job> {
    const res = await call<Job>('POST', `/api/job/${jobId}/undo`, undefined, tok);
    expect(res.status, res.text).toBe(202);
    return settle(res.body.data!.id, tok);
  }

  return { call, seed, settle, run, undo };
}

/** The ids ranges stand for. */
export function expand(ranges: readonly [number, number][]): number[] {
  return ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => from + i));
}
