import type { TFunction } from 'i18next';
import { UNREACHABLE, WindowError } from './api.js';

/**
 * What a view shows for a failed request: the server's message (already meant for the user),
 * or, when no answer came at all, a translated "pim cannot be reached" instead of the
 * browser's "Failed to fetch".
 */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof WindowError && error.code === UNREACHABLE) return t('errors.unreachable');
  return error instanceof Error ? error.message : String(error);
}
