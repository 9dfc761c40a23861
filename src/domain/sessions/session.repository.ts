import type { Kysely } from 'kysely';
import type { SessionKind, SystemDatabase } from '../../db/system.schema.js';

type Db = Kysely<SystemDatabase>;

export interface SessionWithUser {
  token_hash: string;
  expires_at: string;
  issued_at: string;
  user_id: number;
  username: string;
  role: string;
  created_at: string;
  machine_id: string | null;
  kind: SessionKind;
  disabled: number;
}

function sessionsWithUsers(db: Db) {
  return db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select([
      'session.token_hash',
      'session.expires_at',
      'session.issued_at',
      'session.user_id',
      'session.machine_id',
      'session.kind',
      'user.username',
      'user.role',
      'user.created_at',
      'user.disabled',
    ]);
}

export function findSession(db: Db, tokenHash: string): Promise<SessionWithUser | undefined> {
  return sessionsWithUsers(db).where('session.token_hash', '=', tokenHash).executeTakeFirst();
}

/** The desktop session of one instance (there is one at most: a unique index), live or not. */
export function findDesktopSession(db: Db, machineId: string): Promise<SessionWithUser | undefined> {
  return sessionsWithUsers(db)
    .where('session.kind', '=', 'desktop')
    .where('session.machine_id', '=', machineId)
    .executeTakeFirst();
}

/**
 * Whether a user holds a live session (token or desktop) issued by another instance than
 * `machineId`. Sessions with no machine id were issued before instances had ids: this machine's.
 */
export async function hasLiveSessionElsewhere(
  db: Db,
  userId: number,
  machineId: string,
  nowIso: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('session')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .where('machine_id', 'is not', null)
    .where('machine_id', '!=', machineId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertSession(
  db: Db,
  row: {
    token_hash: string;
    user_id: number;
    issued_at: string;
    expires_at: string;
    remote_address: string;
    machine_id: string;
    kind: SessionKind;
  },
): Promise<void> {
  await db.insertInto('session').values(row).execute();
}

/** Deletes one session of the given kind; true when there was one. */
export async function deleteSession(db: Db, tokenHash: string, kind: SessionKind): Promise<boolean> {
  const result = await db
    .deleteFrom('session')
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteExpiredSessions(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('session').where('expires_at', '<=', nowIso).execute();
}

/** The desktop session of one instance, if any. */
export async function deleteDesktopSession(db: Db, machineId: string): Promise<void> {
  await db.deleteFrom('session').where('kind', '=', 'desktop').where('machine_id', '=', machineId).execute();
}

/** Every session of a user, on every instance; returns how many there were. */
/**
 * Ends every session of a user: deletes their session rows and advances their session
 * generation, which ends connections that hold no row (`pim mcp` over stdio) too.
 */
export async function deleteSessionsOf(db: Db, userId: number): Promise<number> {
  await db
    .updateTable('user')
    .set((eb) => ({ session_generation: eb('session_generation', '+', 1) }))
    .where('id', '=', userId)
    .execute();
  const result = await db.deleteFrom('session').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
