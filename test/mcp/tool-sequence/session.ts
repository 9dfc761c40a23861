import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import type { ApiResponse, TestServer } from '../../helpers/server.js';
import { DEFAULT_LANG, Model } from './model.js';

/** What the runs did, for the summary printed at the end. */
export interface Stats {
  runs: number;
  calls: number;
  errors: number;
  restChecks: number;
  twins: number;
}

/** Per tool: its successful calls, and its failing calls by error code. */
export type Tally = Map<string, { ok: number; error: Map<string, number> }>;

/** The running server, the agent's connection to it, and the counts of all runs. */
export class Session {
  readonly stats: Stats = { runs: 0, calls: 0, errors: 0, restChecks: 0, twins: 0 };
  readonly tally: Tally = new Map();
  private runCounter = 0;

  constructor(
    readonly server: TestServer,
    readonly token: string,
    readonly client: Client,
  ) {}

  api<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    this.stats.restChecks += 1;
    return this.server.request<T>(method, path, { token: this.token, body });
  }

  /** Every run starts on a fresh, empty workspace, so the model starts empty too. */
  async freshWorkspace(): Promise<Model> {
    this.runCounter += 1;
    const name = `Seq-${this.runCounter}`;
    // REST has no endpoint that creates a workspace (workspace.routes.ts: list and open only).
    const { server, token } = this;
    const ws = await server.app.workspaces.create(server.app.ownerContext(), {
      name,
      language: DEFAULT_LANG,
    });
    const res = await server.request('POST', '/api/workspace/open', { token, body: { workspaceId: ws.id } });
    expect(res.status, res.text).toBe(200);
    return new Model(name);
  }

  count(tool: string, outcome: string): void {
    let entry = this.tally.get(tool);
    if (!entry) this.tally.set(tool, (entry = { ok: 0, error: new Map() }));
    if (outcome === 'ok') entry.ok += 1;
    else entry.error.set(outcome, (entry.error.get(outcome) ?? 0) + 1);
  }
}
