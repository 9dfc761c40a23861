import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';

type Db = Kysely<SystemDatabase>;

export async function findPreference(db: Db, userId: number, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_preference')
    .select('value')
    .where('user_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** Inserts or replaces: both dialects know ON CONFLICT. */
export async function storePreference(db: Db, userId: number, name: string, value: string): Promise<void> {
  await db
    .insertInto('user_preference')
    .values({ user_id: userId, name, value })
    .onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ value }))
    .execute();
}
