import { Application } from '../../app/application.js';
import type { StorageChoice } from '../../db/database-config.js';
import type { RequestContext } from '../../domain/context.js';
import type { OpenWorkspace } from '../../domain/workspaces/open-workspace.js';
import { UsageError } from '../cli-error.js';

/**
 * Opens the data folder's application services for one command, and closes them afterwards;
 * `storage` instead of the folder's choice (`pim setup` looks at the folder's own SQLite files).
 */
export async function withApplication<T>(
  dataDir: string,
  action: (app: Application) => Promise<T>,
  storage?: StorageChoice,
): Promise<T> {
  const app = await Application.open({ dataDir, storage });
  try {
    return await action(app);
  } finally {
    await app.stop();
  }
}

/** The owner's context in a workspace, as a command works in it. */
export type CommandContext = RequestContext & { workspace: OpenWorkspace };

/**
 * The owner's context in the workspace named (`--workspace NAME`), else in the one pim has open;
 * a usage error when neither is there.
 */
export async function workspaceContext(
  app: Application,
  workspaceName: string | undefined,
): Promise<CommandContext> {
  if (workspaceName !== undefined && workspaceName.trim() === '')
    throw new UsageError('--workspace needs a workspace name; it is empty');
  const owner = app.ownerContext();
  const workspace = workspaceName
    ? await app.workspaces.workspaceFor(owner, { workspaceName })
    : await app.workspaces.follow();
  if (!workspace)
    throw new UsageError('no workspace is open: open one in pim, or name it with --workspace NAME');
  return { ...owner, workspace };
}
