import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';

export interface SessionWithUser {
  token_hash: string;
  expires_at: string;
  issued_at: string;
  user_id: number;
  username: string;
  role: string;
  created_at: string;
}

export function findSession(
  db: Kysely<SystemDatabase>,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select([
      'session.token_hash',
      'session.expires_at',
      'session.issued_at',
      'session.user_id',
      'user.username',
      'user.role',
      'user.created_at',
    ])
    .where('session.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function liveSessionAddresses(
  db: Kysely<SystemDatabase>,
  userId: number,
  nowIso: string,
): Promise<string[]> {
  return db
    .selectFrom('session')
    .select('remote_address')
    .where('user_id', '=', userId)
    .where('expires_at', '>', nowIso)
    .execute()
    .then((rows) => rows.map((r) => r.remote_address));
}

export async function insertSession(
  db: Kysely<SystemDatabase>,
  row: { token_hash: string; user_id: number; issued_at: string; expires_at: string; remote_address: string },
): Promise<void> {
  await db.insertInto('session').values(row).execute();
}

export async function deleteSession(db: Kysely<SystemDatabase>, tokenHash: string): Promise<void> {
  await db.deleteFrom('session').where('token_hash', '=', tokenHash).execute();
}

export async function deleteExpiredSessions(db: Kysely<SystemDatabase>, nowIso: string): Promise<void> {
  await db.deleteFrom('session').where('expires_at', '<=', nowIso).execute();
}
