import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { findPreference, storePreference } from './preference.repository.js';

/** The names a preference may have: a new one is added here (and validated by its adapter's schema). */
export const PREFERENCE_NAMES = ['grid'] as const;
export type PreferenceName = (typeof PREFERENCE_NAMES)[number];

/** A preference is a few column choices, not a document: bounded so that no user can fill the database. */
export const PREFERENCE_BYTES_MAX = 16 * 1024;

function checkName(name: string): asserts name is PreferenceName {
  if (!(PREFERENCE_NAMES as readonly string[]).includes(name)) {
    throw new ValidationError(`'${name}' is not a preference pim keeps (${PREFERENCE_NAMES.join(', ')})`);
  }
}

/**
 * The calling user's own preference `name` (JSON), or null when never saved. Every user may read
 * and write their own preferences, and only those: the context's actor is the owner, so no
 * right is needed and none can reach another user's.
 */
export async function getPreference(
  db: Kysely<SystemDatabase>,
  ctx: RequestContext,
  name: string,
): Promise<unknown> {
  checkName(name);
  const text = await findPreference(db, ctx.actor.id, name);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** Saves the calling user's preference `name` (a JSON value the adapter validated against its schema). */
export async function savePreference(
  db: Kysely<SystemDatabase>,
  ctx: RequestContext,
  name: string,
  value: unknown,
): Promise<void> {
  checkName(name);
  const text = JSON.stringify(value);
  if (text === undefined) throw new ValidationError('A preference needs a JSON value');
  if (Buffer.byteLength(text) > PREFERENCE_BYTES_MAX) {
    throw new ValidationError(`A preference holds at most ${PREFERENCE_BYTES_MAX} bytes of JSON`);
  }
  await storePreference(db, ctx.actor.id, name, text);
}
