import type { JobService } from '../domain/jobs/job.service.js';
import type { Clock } from '../domain/clock.js';
import type { WorkspaceService } from '../domain/workspaces/workspace.service.js';

/** One finished tool call, for the request monitor (the same shape as a REST request's record). */
export interface ToolCallRecord {
  method: 'MCP';
  /** The tool's name. */
  path: string;
  /** The user the agent acts as. */
  user: string;
  /** The status REST answers for the same outcome. */
  status: number;
  at: number;
  durationMs: number;
}

/** What the MCP adapter needs from the application: services, no storage. */
export interface McpDeps {
  clock: Clock;
  workspaces: WorkspaceService;
  /** Long work (imports) as jobs. */
  jobs: JobService;
  /** Called once per tool call (HTTP: the request monitor). */
  onToolDone?: (record: ToolCallRecord) => void;
  /** Where the detail of an unexpected error goes (never to the agent). */
  logError?: (error: unknown) => void;
}

/** Which tools a connection offers (stdio's --read-only and --tools). */
export interface ToolSelection {
  readOnly?: boolean;
  /** Tool names; undefined: all. */
  names?: readonly string[];
}
