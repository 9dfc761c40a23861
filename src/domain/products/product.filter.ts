import { ValidationError } from '../errors.js';

export const PAGE_LIMIT_MAX = 1000;
export const FILTER_VALUE_MAX = 1000;

/** ISO 8601 date (UTC midnight) or date-time with Z or an offset. */
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/i;

/** The last instant of year 9999: stored stamps are compared as text, and later ones have no 4-digit year. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Parses an ISO 8601 instant into the stored form (toISOString), or throws naming the field. */
export function parseInstant(value: string, field: string): string {
  const ms = instantMillis(value);
  if (ms === undefined) {
    throw new ValidationError(
      `${field} '${value}' is not an ISO 8601 date or date-time with time zone (e.g. 2026-01-15T10:00:00Z)`,
    );
  }
  if (ms > LAST_INSTANT) {
    throw new ValidationError(`${field} '${value}' is after the year 9999 (in UTC)`);
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
  // setUTCFullYear, not Date.UTC: that reads years 0-99 as 1900-1999.
  const check = new Date(0);
  check.setUTCFullYear(y!, mo! - 1, d!);
  check.setUTCHours(h, mi, s, fraction);
  const local = check.getTime();
  const offset = zoneOffsetMinutes(match[8]);
  // Refuse what the date silently rolls over (2026-02-30, 25:00) and offsets beyond ±23:59.
  if (
    y! < 1 ||
    offset === undefined ||
    check.getUTCFullYear() !== y ||
    check.getUTCMonth() !== mo! - 1 ||
    check.getUTCDate() !== d ||
    check.getUTCHours() !== h ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== s
  ) {
    return undefined;
  }
  return local - offset * 60_000;
}

/**
 * Minutes east of UTC of `Z`, `+02`, `+0200` or `+02:00`; none (a date only) is UTC; undefined
 * for hours over 23 or minutes over 59 (RFC 3339's bounds).
 */
function zoneOffsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
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
