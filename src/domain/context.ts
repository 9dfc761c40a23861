import type { Clock } from './clock.js';
import type { OpenWorkspace } from './workspaces/open-workspace.js';
import type { User } from './users/user.service.js';

/**
 * Who is asking and on which workspace. Every catalogue service call takes it first,
 * so the same services serve REST, MCP, the UI and the CLI.
 */
export interface WorkspaceContext {
  workspace: OpenWorkspace;
  clock: Clock;
  user?: User;
  /** Language asked for in reads (`?lang=`), if any; else the workspace default. */
  language?: string;
}
