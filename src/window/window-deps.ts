import type { RequestMonitor } from '../app/request-monitor.js';
import type { Clock } from '../domain/clock.js';
import type { SessionService } from '../domain/sessions/session.service.js';
import type { SettingsService } from '../domain/settings/settings.service.js';
import type { UserService } from '../domain/users/user.service.js';
import type { WorkspaceService } from '../domain/workspaces/workspace.service.js';
import type { DatabaseState, RestOverride, RestState } from './window-api.types.js';

export type { RestOverride, RestState } from './window-api.types.js';

/** What the window's server needs from the application: services and a few facts, no storage. */
export interface WindowDeps {
  clock: Clock;
  sessions: SessionService;
  users: UserService;
  settings: SettingsService;
  workspaces: WorkspaceService;
  monitor: RequestMonitor;
  machineId: string;
  version: string;
  /** Folder of the built window (index.html and assets/). */
  uiDir: string;
  restState(): RestState;
  /** The start's --port/--host that replace rest.port/rest.host as stored, or as proposed. */
  restOverride(proposed?: { port: number; host: string }): Promise<RestOverride>;
  /** Whether the database answers (team mode's shared PostgreSQL may not). */
  databaseState(): DatabaseState;
  /** Applies the saved settings now (the REST server starts, stops or moves). */
  applySettings(): Promise<void>;
}
