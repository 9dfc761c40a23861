import { sql } from 'kysely';
import { CHANGE_COUNTER_SHARDS } from '../migrations/0014-change-counter-shards.js';
import type { ChangeState, WorkspaceDb } from './catalogue-sql.js';

/**
 * PostgreSQL's change counter, spread over rows so that writers do not queue on one (issue 34;
 * docs/storage.md, "The change counter on PostgreSQL", gives the reasoning in full).
 *
 * - A write raises by one a row no other writer holds (its connection's, `1 + pg_backend_pid() %
 *   SHARDS`, when free), so writers do not wait for each other there. The counter is the sum of the
 *   rows, read in one snapshot: it rises by one with every committed write, as the one row did.
 * - Each row keeps the newest stamp its writers committed. A write takes its row's lock first
 *   (statement 1) and only then, in a statement of its own and so in a snapshot taken after the
 *   lock, stamps with the newest stamp committed anywhere, or its own instant if later
 *   (statement 2). The stamps of a row thus follow its commit order, and a write stamps at or
 *   after every write committed before its statement 2.
 * - The watermark (`changedAt`) is the newest stamp committed, lowered to the stamp of every row
 *   a writer holds that the reader's snapshot does not see committed (the row's visible version
 *   carries that writer in `xmax`). A write committing after the read either held its row before
 *   (then its stamp is at or after that row's stamp, which the watermark is not above) or ran its
 *   statement 2 after the read began (then it saw all the reader saw: its stamp is at or after the
 *   newest stamp the reader saw). Either way it falls at or after the watermark: delta sync misses
 *   nothing.
 */
const SHARD = sql`1 + pg_backend_pid() % ${sql.lit(CHANGE_COUNTER_SHARDS)}`;

/**
 * Takes a counter row no other writer holds, its connection's first (so that connections keep to
 * rows of their own), without waiting; only when every row made so far is held, waits for its
 * connection's row, or row 1 while that is not made yet (made below once the stamp is known: a
 * new row would be invisible to readers until the commit, row 1 never is).
 */
async function takeRow(db: WorkspaceDb): Promise<{ id: number; missing: boolean }> {
  const free = await sql<{ id: number }>`
    UPDATE change_counter SET value = value + 1 WHERE id = (
      SELECT id FROM change_counter ORDER BY (id - ${SHARD} + ${sql.lit(CHANGE_COUNTER_SHARDS)}) % ${sql.lit(CHANGE_COUNTER_SHARDS)}
      LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`.execute(db);
  if (free.rows[0]) return { id: free.rows[0].id, missing: false };
  const own = await sql<{ id: number }>`
    UPDATE change_counter SET value = value + 1 WHERE id = ${SHARD} RETURNING id`.execute(db);
  if (own.rows[0]) return { id: own.rows[0].id, missing: false };
  await sql`UPDATE change_counter SET value = value + 1 WHERE id = 1`.execute(db);
  return { id: 1, missing: true };
}

export async function raiseChangeCounterPostgres(db: WorkspaceDb, at: string): Promise<string> {
  const row = await takeRow(db);
  const result = await sql<{ stamp: string }>`
    UPDATE change_counter SET stamp = GREATEST(${at}, (SELECT max(stamp) FROM change_counter))
    WHERE id = ${row.id} RETURNING stamp`.execute(db);
  const stamp = result.rows[0]?.stamp ?? at;
  if (row.missing) {
    // A row that is not held yet needs no stamp below the newest: it holds this one. DO NOTHING: a
    // concurrent maker counted on row 1 too, so it committed before this transaction got there.
    await sql`INSERT INTO change_counter (id, value, stamp) VALUES (${SHARD}, 0, ${stamp})
      ON CONFLICT (id) DO NOTHING`.execute(db);
  }
  if (stamp <= at) return at;
  // Only rows this transaction can take at once: its own, and rows others committed in the same
  // instant (same stamps: a row of another transaction moves forward too, delivered once more,
  // never lost). A row another transaction holds is not waited for: holding a counter row while
  // waiting for it could deadlock with that transaction's own counter statement. Such a row needs
  // no move (its committed stamp was handed out by its own commit, before this one).
  await sql`UPDATE product SET updated_at = ${stamp} WHERE id IN (
    SELECT id FROM product WHERE updated_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
  await sql`UPDATE product_deletion SET deleted_at = ${stamp} WHERE id IN (
    SELECT id FROM product_deletion WHERE deleted_at = ${at} FOR NO KEY UPDATE SKIP LOCKED)`.execute(db);
  return stamp;
}

/**
 * Whether the visible version of a counter row is held by a writer this snapshot does not see
 * committed: `xmax` names the transaction that updated it (a 32-bit id, widened here to the
 * 64-bit one of the snapshot's epoch, the nearest to the snapshot's xmax), and that transaction is
 * in progress, or committed after the snapshot. An aborted one holds nothing.
 */
const HELD = sql`CASE WHEN c.xmax::text = '0' THEN false ELSE (
  SELECT NOT pg_visible_in_snapshot(x.id, s.snapshot) AND pg_xact_status(x.id) IS DISTINCT FROM 'aborted'
  FROM (SELECT (s.top + ((c.xmax::text::bigint - s.top % 4294967296) % 4294967296
    + 4294967296 + 2147483648) % 4294967296 - 2147483648)::text::xid8 AS id) x) END`;

const STATE = sql`
  SELECT COALESCE(sum(c.value), 0) AS value,
    LEAST(max(c.stamp), min(c.stamp) FILTER (WHERE ${HELD})) AS stamp
  FROM change_counter c,
    (SELECT pg_current_snapshot() AS snapshot,
      pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS top) s`;

export async function changeStatePostgres(db: WorkspaceDb): Promise<ChangeState> {
  const row = (await sql<{ value: string; stamp: string | null }>`${STATE}`.execute(db)).rows[0];
  return { value: Number(row?.value ?? 0), stamp: row?.stamp ? row.stamp : null };
}

export async function changeCounterPostgres(db: WorkspaceDb): Promise<number> {
  const result = await sql<{ value: string }>`
    SELECT COALESCE(sum(value), 0) AS value FROM change_counter`.execute(db);
  return Number(result.rows[0]?.value ?? 0);
}
