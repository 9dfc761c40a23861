import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { listDeletions, recordDeletions } from './product-deletion.repository.js';
import type { WorkspaceDb } from '../../db/catalogue/catalogue-sql.js';
import { parseInstant } from './product.filter.js';

/** How long deletions are kept for delta sync. */
export const DELETIONS_KEPT_DAYS = 30;
const KEPT_MS = DELETIONS_KEPT_DAYS * 24 * 60 * 60 * 1000;

export interface DeletedProductDto {
  id: number;
  supplierPid: string;
  deletedAt: string;
}

/** Records products (and their variants) as deleted at `at`; called in the deleting transaction. */
export async function noteDeletions(db: WorkspaceDb, ids: readonly number[], at: string): Promise<void> {
  await recordDeletions(db, ids, at, new Date(Date.parse(at) - KEPT_MS).toISOString());
}

/**
 * Products deleted at or after `since` (inclusive, like updatedSince), oldest first: what a delta
 * sync mirrors after reading `updatedSince`. Deletions are kept 30 days; an older `since` is
 * refused, as the answer could miss deletions (the client must sync in full).
 */
export async function listDeletedProducts(
  context: RequestContext,
  since: string,
): Promise<DeletedProductDto[]> {
  const ctx = useWorkspace(context, RIGHTS.read);
  const from = parseInstant(since, 'since');
  const oldest = ctx.clock.now().getTime() - KEPT_MS;
  if (Date.parse(from) < oldest) {
    throw new ValidationError(
      `since '${since}' is older than the ${DELETIONS_KEPT_DAYS} days deletions are kept: sync in full instead`,
      'DELETIONS_EXPIRED',
    );
  }
  const rows = await listDeletions(ctx.db, from);
  return rows.map((r) => ({ id: r.id, supplierPid: r.supplier_pid, deletedAt: r.deleted_at }));
}
