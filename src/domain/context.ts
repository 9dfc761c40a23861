import type { Kysely } from 'kysely';
import type { CatalogueReads } from '../db/catalogue/catalogue-reads.js';
import type { WorkspaceDatabase } from '../db/workspace.schema.js';
import { retryAbortedTransaction } from '../db/transaction-retry.js';
import { catalogueTransaction } from './changes/catalogue-transaction.js';
import { onceClock, type Clock } from './clock.js';
import { ForbiddenError, NoWorkspaceError } from './errors.js';
import { RIGHTS, rightsOf, type Right, type Role } from './users/roles.js';
import type { OpenWorkspace } from './workspaces/open-workspace.js';

/** Who is asking: a logged-in user, or the machine's owner acting through the CLI. */
export interface Actor {
  id: number;
  username: string;
  role: Role;
  rights: readonly Right[];
}

/**
 * What every service call takes first, whichever adapter built it (REST, MCP, the window,
 * the CLI): who asks, with which rights, on which open workspace, at which time, in which
 * language, and optionally inside which transaction. Services check rights and the open
 * workspace themselves from it; an adapter's own checks are only a fast first line.
 */
export interface RequestContext {
  actor: Actor;
  clock: Clock;
  /** The workspace the application has open, if any, as the adapter found it. */
  workspace?: OpenWorkspace;
  /** Language asked for in reads (`?lang=`), if any; else the workspace default. */
  language?: string;
  /**
   * A transaction of the caller on `workspace`: set, every service call runs inside it, so
   * that several calls (a bulk upsert, an import) commit or roll back together.
   */
  trx?: Kysely<WorkspaceDatabase>;
}

/** A context whose right and workspace were checked: what catalogue code works with. */
export interface WorkspaceContext extends RequestContext {
  workspace: OpenWorkspace;
  /** The caller's transaction, or the workspace's database. */
  db: Kysely<WorkspaceDatabase>;
  /**
   * The catalogue's hot reads (db/catalogue/catalogue-reads.ts): in the caller's transaction when
   * there is one, else on the connection the store reads from (the seam decides which).
   */
  readonly reads: CatalogueReads;
  /**
   * Runs `work` in the caller's transaction, or in a new one when there is none; a new one that
   * changed rows raises the workspace's change counter (changes/catalogue-transaction.ts).
   * Writes read their instant (`clock`) inside `work`: on SQLite the transaction has the one
   * writer's lock by then, so stamps follow the commit order without being moved.
   */
  transaction<T>(work: (trx: Kysely<WorkspaceDatabase>) => Promise<T>): Promise<T>;
  /**
   * Runs reads that must agree with each other (the tree and its counts) in the caller's
   * transaction or a plain one: a read changes nothing, so it skips the change counter's
   * bookkeeping that `transaction` does.
   */
  snapshot<T>(work: (trx: Kysely<WorkspaceDatabase>) => Promise<T>): Promise<T>;
}

/** Throws FORBIDDEN unless the actor holds `right`. */
export function requireRight(ctx: RequestContext, right: Right): void {
  if (!ctx.actor.rights.includes(right)) {
    throw new ForbiddenError(`Role ${ctx.actor.role} lacks the right '${right}' this operation needs`);
  }
}

/**
 * The entry check of every catalogue service, in the order of the spec's checks (the token
 * was the adapter's): the open workspace (409), then the right (403).
 */
export function useWorkspace(ctx: RequestContext, right: Right): WorkspaceContext {
  const workspace = ctx.workspace;
  if (!workspace) throw new NoWorkspaceError();
  requireRight(ctx, right);
  if (ctx instanceof CheckedContext) return ctx;
  return new CheckedContext(ctx, workspace);
}

/**
 * A checked context: a class, not a spread object with closures, because every catalogue call
 * of every request builds one (GET /api/product/{id} is measured in the benchmark).
 */
class CheckedContext implements WorkspaceContext {
  readonly actor: Actor;
  readonly clock: Clock;
  readonly workspace: OpenWorkspace;
  readonly language: string | undefined;
  readonly trx: Kysely<WorkspaceDatabase> | undefined;
  readonly db: Kysely<WorkspaceDatabase>;

  constructor(ctx: RequestContext, workspace: OpenWorkspace) {
    this.actor = ctx.actor;
    // One instant per service call and the calls nested in it (they get this context, or one
    // spread from it): the stamps of one transaction are all alike.
    this.clock = onceClock(ctx.clock);
    this.workspace = workspace;
    this.language = ctx.language;
    this.trx = ctx.trx;
    this.db = ctx.trx ?? workspace.db;
  }

  transaction<T>(work: (trx: Kysely<WorkspaceDatabase>) => Promise<T>): Promise<T> {
    const { trx, workspace } = this;
    return trx
      ? work(trx)
      : retryAbortedTransaction(() => catalogueTransaction(workspace.db, work, this.clock));
  }

  get reads(): CatalogueReads {
    const { store } = this.workspace;
    return this.trx ? store.readsIn(this.trx) : store.reads;
  }

  snapshot<T>(work: (trx: Kysely<WorkspaceDatabase>) => Promise<T>): Promise<T> {
    // Read only: on SQLite a plain BEGIN that never waits for a writer (db/sqlite-dialect.ts).
    return this.trx
      ? work(this.trx)
      : this.workspace.db.transaction().setAccessMode('read only').execute(work);
  }
}

/**
 * Runs several service calls in one transaction on the context's workspace: all commit, or
 * none (the first error rolls everything back and is rethrown). Inside a caller's transaction
 * it simply joins it.
 */
export async function runInTransaction<T>(
  ctx: RequestContext,
  right: Right,
  work: (ctx: WorkspaceContext) => Promise<T>,
): Promise<T> {
  const scoped = useWorkspace(ctx, right);
  // Spread from `scoped`, not `ctx`: the inner context keeps the transaction's instant.
  return scoped.transaction((trx) => work(useWorkspace({ ...scoped, trx }, right)));
}

/** The machine's owner, acting through the CLI or the application itself (first run, demo data). */
export const SYSTEM_ACTOR: Actor = {
  id: 0,
  username: 'system',
  role: 'ADMIN',
  rights: rightsOf('ADMIN'),
};

/** A context for the application's own work (first run, CLI commands). */
export function systemContext(clock: Clock, workspace?: OpenWorkspace): RequestContext {
  return { actor: SYSTEM_ACTOR, clock, workspace };
}

export { RIGHTS };
