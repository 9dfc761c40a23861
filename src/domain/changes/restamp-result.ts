/**
 * A write's answer, when its stamps moved at the commit (db/catalogue/change-counter-sql.ts's
 * restamp): the answer was read inside the transaction, before the move, so it names the instant
 * the write began. Its `updatedAt` and `deletedAt` values holding that instant take the stored
 * stamp, so that a client keeps what the next read shows. Only those keys change, in DTOs
 * (changed in place: a write's answer is built for it alone) and in an answer that is JSON text
 * as a whole (a service passing on what the database wrote). A string inside a DTO is a user's
 * value (a name, a text, a feature value) and stays byte for byte, whatever it holds. Rare by
 * design: only a write that committed after a later one pays the walk.
 */
const STAMP_KEYS = ['updatedAt', 'deletedAt'] as const;

export function restampResult<T>(result: T, at: string, stamp: string): T {
  return (typeof result === 'string' ? restampJsonText(result, at, stamp) : restamp(result, at, stamp)) as T;
}

function restamp(value: unknown, at: string, stamp: string): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restamp(value[i], at, stamp);
    return value;
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) {
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const [key, entry] of Object.entries(record)) {
    record[key] =
      (STAMP_KEYS as readonly string[]).includes(key) && entry === at ? stamp : restamp(entry, at, stamp);
  }
  return record;
}

function restampJsonText(text: string, at: string, stamp: string): string {
  if (!text.includes(at)) return text;
  let out = text;
  for (const key of STAMP_KEYS) out = out.split(`"${key}":"${at}"`).join(`"${key}":"${stamp}"`);
  return out;
}
