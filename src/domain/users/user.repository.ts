import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';

export type UserRow = {
  id: number;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
};

export function findUserByName(db: Kysely<SystemDatabase>, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('username', '=', username).executeTakeFirst();
}

export function findUserById(db: Kysely<SystemDatabase>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listUsers(db: Kysely<SystemDatabase>): Promise<UserRow[]> {
  return db.selectFrom('user').selectAll().orderBy('id').execute();
}

export async function insertUser(db: Kysely<SystemDatabase>, row: Omit<UserRow, 'id'>): Promise<UserRow> {
  return db.insertInto('user').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function countUsers(db: Kysely<SystemDatabase>): Promise<number> {
  const { n } = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function updatePasswordHash(
  db: Kysely<SystemDatabase>,
  id: number,
  passwordHash: string,
): Promise<void> {
  await db.updateTable('user').set({ password_hash: passwordHash }).where('id', '=', id).execute();
}
