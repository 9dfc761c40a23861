import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../domain/clock.js';
import type { JobService } from '../domain/jobs/job.service.js';
import type { SessionService } from '../domain/sessions/session.service.js';
import type { SettingsService } from '../domain/settings/settings.service.js';
import type { UserService } from '../domain/users/user.service.js';
import type { WorkspaceService } from '../domain/workspaces/workspace.service.js';

/** What the HTTP adapter needs from the application: services, no storage. */
export interface HttpDeps {
  clock: Clock;
  sessions: SessionService;
  users: UserService;
  settings: SettingsService;
  workspaces: WorkspaceService;
  /** Long work (imports): its state, progress and cancel. */
  jobs: JobService;
  /** Who may call and by which name, as the settings say now (read on every request). */
  edgePolicy?: () => EdgePolicy;
  /** Called once per finished request (the request monitor). */
  onRequestDone?: (entry: RequestRecord) => void;
  /** MCP's tools/call fast path (mcp/tool-call-fast-path.ts); absent: on. */
  mcpFastPath?: McpFastPathSwitch;
}

/**
 * Whether MCP tools/call requests may skip the SDK's per-request machinery once it has answered
 * one of the same shape (off: the SDK answers all), and how many it answered so (diagnostics, and
 * the test that compares both paths checks the fast one was taken).
 */
export interface McpFastPathSwitch {
  enabled: boolean;
  answered: number;
  /** Request shapes left to the SDK because its answer was not what the fast path writes. */
  refused: number;
  /**
   * Tests only: rewrites the body of each SDK answer before pim sends it or the fast path learns
   * from it, standing in for an SDK release whose wire format changed.
   */
  rewriteSdkAnswer?: (body: string, headers: IncomingHttpHeaders) => string;
}

/** One finished request; `at` is the time it finished, in ms since the epoch. */
export interface RequestRecord {
  method: string;
  /** The path with its query string (secrets masked, see monitor-path.ts); a tool's name for MCP. */
  path: string;
  /** Who made it, when known (a valid token, or the agent's user). */
  user?: string;
  status: number;
  at: number;
  durationMs: number;
}

/** The checks made before anything else on a request (edge-guards.ts). */
export interface EdgePolicy {
  /** Whether a client address may call (rest.allow); undefined: everyone who reaches the server. */
  allows?: (address: string) => boolean;
  /** Bound to a loopback address: the Host header must name this machine (DNS rebinding). */
  loopbackOnly: boolean;
}
