import { sql, type Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import { loginNameForms } from './credential-rules.js';

type Db = Kysely<SystemDatabase>;

export type UserRow = {
  id: number;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
  /** 1: disabled. */
  disabled: number;
  last_login_at: string | null;
  /** Grows whenever every session of the user is ended. */
  session_generation: number;
};

/**
 * Names are unique case-insensitively in ASCII (SQLite's NOCASE; on PostgreSQL a unique index
 * on lower(username) under the C collation, which folds ASCII only): compared alike.
 */
export function findUserByName(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('user')
    .selectAll()
    .where(sql<boolean>`lower(username) = lower(${username})`)
    .executeTakeFirst();
}

/** The user a login name means: see loginNameForms for the forms tried, in order. */
export async function findUserByLoginName(db: Db, name: string): Promise<UserRow | undefined> {
  for (const form of loginNameForms(name)) {
    const row = await findUserByName(db, form);
    if (row) return row;
  }
  return undefined;
}

export async function listUsernames(db: Db): Promise<string[]> {
  return (await db.selectFrom('user').select('username').execute()).map((row) => row.username);
}

export function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('user').selectAll().orderBy('id').execute();
}

export async function insertUser(
  db: Db,
  row: Pick<UserRow, 'username' | 'password_hash' | 'role' | 'created_at'>,
): Promise<UserRow> {
  return db.insertInto('user').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updatePasswordHash(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.updateTable('user').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}

/** Changes a user's row; false when there is no such user. */
export async function updateUser(
  db: Db,
  id: number,
  changes: Partial<Pick<UserRow, 'role' | 'password_hash' | 'disabled'>>,
): Promise<boolean> {
  const result = await db.updateTable('user').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a successful login of an enabled user; false when the user is disabled (or gone). */
export async function markLogin(db: Db, id: number, atIso: string): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ last_login_at: atIso })
    .where('id', '=', id)
    .where('disabled', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Locks the rows of the enabled administrators for the rest of the transaction (a write that
 * changes nothing: the write lock on SQLite, row locks on PostgreSQL), so that two demotions
 * racing cannot both see the other administrator and leave none.
 */
export async function lockEnabledAdmins(db: Db): Promise<void> {
  await db
    .updateTable('user')
    .set((eb) => ({ role: eb.ref('role') }))
    .where('role', '=', 'ADMIN')
    .where('disabled', '=', 0)
    .execute();
}

export async function countEnabledAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'ADMIN')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
