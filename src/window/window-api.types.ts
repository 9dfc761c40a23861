/**
 * The JSON the window's endpoints answer, shared by the server (src/window) and the front end
 * (src/ui imports these types only): one definition of each shape on both sides.
 */

/** The REST server as the window shows it. */
export interface RestState {
  enabled: boolean;
  running: boolean;
  host: string;
  port: number;
  /** http://host:port/api while it runs. */
  url?: string;
  /** Why it does not run although enabled (e.g. the port is taken). */
  problem?: string;
}

/**
 * The start options (`pim start --port/--host`) that replace the stored rest.port / rest.host for
 * this run, where they differ from them. They hold until that setting is changed.
 */
export interface RestOverride {
  port?: number;
  host?: string;
}

/** Settings › Rest API: the stored values, what is in effect, and whether the user may change them. */
export interface RestSettingsDto {
  enabled: boolean;
  port: number;
  host: string;
  allow: string;
  state: RestState;
  override: RestOverride;
  warning: string | null;
  editable: boolean;
}

/** The database as the status bar shows it: team mode's shared PostgreSQL may be unreachable. */
export interface DatabaseState {
  kind: 'sqlite' | 'postgres';
  reachable: boolean;
  /** The shared database as host:port/database (team mode; no user, never a password). */
  target?: string;
}

/** A user as the window knows the logged-in one. */
export interface SessionUserDto {
  username: string;
  role: string;
  rights: readonly string[];
}

/** What the status bar shows, pushed to the window whenever it changes. */
export interface WindowStatus {
  user: SessionUserDto | null;
  workspace: { id: number; name: string } | null;
  rest: RestState;
  database: DatabaseState;
  machineId: string;
}

/** One entry of the REST API monitor (also MCP tool calls, method MCP). */
export interface MonitorEntry {
  method: string;
  /** Path and query string, secrets masked; the tool's name for MCP. */
  path: string;
  user?: string;
  status: number;
  timestamp: string;
  durationMs: number;
}

/**
 * A monitor entry as the window's stream sends it: numbered since the application started, so
 * that a window that reconnects (and gets the latest entries again) shows none twice.
 */
export interface NumberedMonitorEntry extends MonitorEntry {
  seq: number;
}

/** The stream's first event: which run of the application numbers the entries that follow. */
export interface MonitorEpoch {
  epoch: string;
}

/**
 * The window's push when the open workspace's catalogue changed (event `catalogue`): its change
 * counter now. The catalogue views refetch what they show.
 */
export interface CatalogueChange {
  workspaceId: number;
  counter: number;
}
