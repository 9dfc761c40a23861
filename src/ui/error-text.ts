import type { TFunction } from 'i18next';
import { UNREACHABLE, WindowError } from './window-error.js';

/**
 * The codes the window meets and says in the user's language (locales: errors.code.*). A code
 * not listed keeps the server's sentence, which is English: better a precise English sentence
 * than a vague translated one.
 */
const TRANSLATED = new Set([
  'INVALID_CREDENTIALS',
  'USER_DISABLED',
  'LOGGED_IN_ELSEWHERE',
  'LOGIN_BUSY',
  'SERVICE_BUSY',
  'DATABASE_BUSY',
  'DATABASE_READ_ONLY',
  'DATABASE_UNAVAILABLE',
  'FORBIDDEN',
  'CSRF_REFUSED',
  'HOST_NOT_ALLOWED',
  'BODY_TOO_LARGE',
  'USER_EXISTS',
  'USER_NOT_FOUND',
  'LAST_ADMIN',
  'NOT_FOUND',
  'NO_WORKSPACE_OPEN',
  'WORKSPACE_NOT_FOUND',
  'WORKSPACE_ALREADY_LOADED',
  'WORKSPACE_FOLDER_MISSING',
  'WORKSPACE_DATABASE_MISSING',
  'WORKSPACE_DATABASE_FOREIGN',
  'WORKSPACE_DATABASE_UNREACHABLE',
  'WORKSPACE_DATABASE_READ_ONLY',
  'JOB_FINISHED',
  'UNSUPPORTED_MEDIA_TYPE',
  'GROUP_NOT_FOUND',
  'INTERNAL',
]);

/** The inputs a refusal may name (REST's property or the setting's key), by their label's key. */
const FIELDS: Record<string, string> = {
  username: 'username',
  password: 'password',
  host: 'host',
  'rest.host': 'host',
  port: 'port',
  'rest.port': 'port',
};

/** Schema rules said in the user's language (errors.rule.*), with the field's label. */
const RULES = new Set(['minLength', 'maxLength', 'minimum', 'maximum']);

/** Why a port could not be bound (errors.port.*), as the server's probe names it. */
const PORT_REASONS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);

/**
 * What a view shows for a failed request: in the user's language where the window knows the
 * code (or the field's rule), else the server's sentence; when no answer came at all, "pim
 * cannot be reached" instead of the browser's "Failed to fetch".
 */
export function errorText(t: TFunction, error: unknown): string {
  if (!(error instanceof WindowError)) return error instanceof Error ? error.message : String(error);
  if (error.code === UNREACHABLE) return t('errors.unreachable');
  return translated(t, error) ?? error.message;
}

function translated(t: TFunction, error: WindowError): string | undefined {
  const { params = {}, retryAfterSeconds } = error.details;
  const field = error.field === undefined ? undefined : FIELDS[error.field];
  switch (error.code) {
    case 'VALIDATION_FAILED': {
      if (!field) return undefined;
      const rule = String(params.rule ?? '');
      if (RULES.has(rule)) {
        const name = t(`errors.field.${field}`);
        // minLength 1 is "must not be empty"; the others name their limit.
        if (rule === 'minLength' && params.limit === 1) return t('errors.rule.empty', { field: name });
        const limit = Number(params.limit);
        // Lengths are counted in characters (plural forms); minimum and maximum are plain numbers.
        return rule.endsWith('Length')
          ? t(`errors.rule.${rule}`, { field: name, count: limit })
          : t(`errors.rule.${rule}`, { field: name, limit });
      }
      // The settings' own check of an address or port (no schema rule): one thing it can mean.
      return params.rule === undefined && (field === 'host' || field === 'port')
        ? t(`errors.invalid.${field}`)
        : undefined;
    }
    case 'PORT_IN_USE': {
      const reason = String(params.reason ?? '');
      return PORT_REASONS.has(reason)
        ? t(`errors.port.${reason}`, { port: params.port, host: params.host })
        : undefined;
    }
    case 'TOO_MANY_FAILED_LOGINS':
      return retryAfterSeconds === undefined
        ? undefined
        : t('errors.code.TOO_MANY_FAILED_LOGINS', { count: Math.max(1, Math.ceil(retryAfterSeconds / 60)) });
    default:
      return TRANSLATED.has(error.code) ? t(`errors.code.${error.code}`) : undefined;
  }
}
