import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import type { OpenWorkspace } from '../workspaces/open-workspace.js';
import type { WorkspaceDb } from '../products/product.repository.js';
import {
  readChangeCounter,
  readChangeCounterPrepared,
  readChangeState,
  type ChangeState,
} from './change-counter.repository.js';

/** The version of a whole catalogue: which workspace, at which value of its change counter. */
export interface CatalogueVersion {
  workspaceId: number;
  counter: number;
}

/**
 * The committed value of a workspace's change counter, read from its database every time (other
 * processes and instances write it too): on SQLite from the read-only connection's prepared
 * statement, inside a caller's transaction from that transaction.
 */
export async function changeCounterOf(workspace: OpenWorkspace, trx?: WorkspaceDb): Promise<number> {
  if (!trx && workspace.reader) return readChangeCounterPrepared(workspace.reader);
  return readChangeCounter(trx ?? workspace.db);
}

/** The committed counter with its newest stamp (GET /api/workspace), read as changeCounterOf. */
export function changeStateOf(workspace: OpenWorkspace): Promise<ChangeState> {
  return readChangeState(workspace.db, workspace.reader);
}

/**
 * The open workspace's catalogue version: what a list, a tree or a product's texts are valid
 * for. Read it before the data it stands for, so that it is never newer than what was read.
 */
export async function getCatalogueVersion(context: RequestContext): Promise<CatalogueVersion> {
  const ctx = useWorkspace(context, RIGHTS.read);
  return { workspaceId: ctx.workspace.id, counter: await changeCounterOf(ctx.workspace, ctx.trx) };
}
