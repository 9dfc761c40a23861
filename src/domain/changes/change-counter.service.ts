import type { ChangeState } from '../../db/catalogue/catalogue-reads.js';
import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import type { OpenWorkspace } from '../workspaces/open-workspace.js';

export type { ChangeState } from '../../db/catalogue/catalogue-reads.js';

/** The version of a whole catalogue: which workspace, at which value of its change counter. */
export interface CatalogueVersion {
  workspaceId: number;
  counter: number;
}

/** The committed counter with its newest stamp (GET /api/workspace), read from the database every time. */
export function changeStateOf(workspace: OpenWorkspace): Promise<ChangeState> {
  return workspace.store.reads.changeState();
}

/**
 * The open workspace's catalogue version: what a list, a tree or a product's texts are valid
 * for. Read it before the data it stands for, so that it is never newer than what was read. The
 * counter is read from the database every time (other processes and instances write it too).
 */
export async function getCatalogueVersion(context: RequestContext): Promise<CatalogueVersion> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return { workspaceId: ctx.workspace.id, counter: await ctx.reads.changeCounter() };
}
