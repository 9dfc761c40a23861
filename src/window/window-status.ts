import type { AuthenticatedUser } from '../domain/sessions/authenticated-user.js';
import type { WindowStatus } from './window-api.types.js';
import type { WindowDeps } from './window-deps.js';

export type { WindowStatus } from './window-api.types.js';

export async function windowStatus(
  deps: WindowDeps,
  user: AuthenticatedUser | undefined,
): Promise<WindowStatus> {
  // The open workspace is kept in the data folder's own file: known even while a shared database is down.
  const workspace = await deps.workspaces.follow();
  return {
    user: user ? { username: user.username, role: user.role, rights: user.rights } : null,
    workspace: workspace ? { id: workspace.id, name: workspace.name } : null,
    rest: deps.restState(),
    database: deps.databaseState(),
    machineId: deps.machineId,
  };
}
