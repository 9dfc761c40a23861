import { ValidationError } from '../errors.js';

export const PAGE_LIMIT_MAX = 1000;
export const FILTER_VALUE_MAX = 1000;

/** ISO 8601 date (UTC midnight) or date-time with Z or an offset. */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/i;

/** Parses an ISO 8601 instant into the stored form (toISOString), or throws naming the field. */
export function parseInstant(value: string, field: string): string {
  const ms = instantMillis(value);
  if (ms === undefined) {
    throw new ValidationError(
      `${field} '${value}' is not an ISO 8601 date or date-time with time zone (e.g. 2026-01-15T10:00:00Z)`,
    );
  }
  return new Date(ms).toISOString();
}

function instantMillis(value: string): number | undefined {
  const match = ISO_8601.exec(value);
  if (!match) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = match
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(y!, mo! - 1, d!, h, mi, s, fraction);
  const check = new Date(local);
  // Refuse what Date.UTC silently rolls over (2026-02-30, 25:00).
  if (
    y! < 1 ||
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo! - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== s
  ) {
    return undefined;
  }
  return local - zoneOffsetMinutes(match[8]) * 60_000;
}

/** Minutes east of UTC of `Z`, `+02`, `+0200` or `+02:00`; none (a date only) is UTC. */
function zoneOffsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
  return zone[0] === '-' ? -minutes : minutes;
}

/** A LIKE pattern for a case-insensitive substring search, with %, _ and \ escaped by backslash. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    throw new ValidationError(`limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`);
  }
}
