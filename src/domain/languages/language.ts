import { iso6392 } from 'iso-639-2';
import { atField, ValidationError } from '../errors.js';

/**
 * ISO 639-2 codes: both the bibliographic (/B, `ger`) and terminology (/T, `deu`) forms
 * are accepted case-insensitively, as BMEcat does. The stored form is /T where one exists
 * (`deu`, `fra`), which is the form the spec's examples use.
 */
const canonical = new Map<string, string>();
for (const entry of iso6392) {
  // The package lists the local-use range as one entry, `qaa-qtz`: a range, not a code. Local-use
  // codes mean nothing outside one organisation, so they are not accepted.
  if (!/^[a-z]{3}$/.test(entry.iso6392B)) continue;
  const stored = entry.iso6392T ?? entry.iso6392B;
  canonical.set(entry.iso6392B, stored);
  if (entry.iso6392T) canonical.set(entry.iso6392T, stored);
}

/** ISO 639-2's "no linguistic content": the language of values that have none (numbers, codes). */
export const LANGUAGE_NEUTRAL = 'zxx';

/** Returns the stored form of a language code, or undefined if it is not an ISO 639-2 code. */
export function lookupLanguage(code: string): string | undefined {
  if (code.length !== 3) return undefined;
  return canonical.get(code.toLowerCase());
}

/** Normalises a language code or throws a ValidationError naming the field. */
export function normalizeLanguage(code: string, field = 'language'): string {
  const stored = lookupLanguage(code);
  if (!stored) {
    throw atField(
      new ValidationError(
        `${field} '${code}' is not an ISO 639-2 language code (for example deu, eng, fra)`,
        'INVALID_LANGUAGE',
      ),
      field,
    );
  }
  return stored;
}
