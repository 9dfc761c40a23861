/**
 * GET answers the window asks for before the view that needs them renders: the opening's (one
 * request while the browser still evaluates the bundle, opening-requests.ts) and the editor's sheet
 * (asked for by the key that opens it, before the view changes). api() takes an answer from here
 * instead of asking again when one was asked for the same path a moment ago.
 *
 * Only a successful answer is ever taken: a refusal (no session yet, no workspace) or a failure is
 * asked again through api(), which then reports it as it always does. An answer is taken once,
 * within TTL_MS of its start; a change of the catalogue forgets every answer not taken yet.
 */

/** An answer not taken within this time was not for a view that opened at once: asked again then. */
const TTL_MS = 10_000;

/** The window's CSRF guard (api.ts sends it too): a page on another site cannot send it. */
export const WINDOW_HEADERS = { 'x-pim-window': '1' } as const;

export type EarlyAnswer = { ok: true; data: unknown } | { ok: false };

interface Started {
  at: number;
  answer: Promise<EarlyAnswer>;
}

const started = new Map<string, Started>();

/** Starts `GET /ui/api<path>` for api() to take. */
export function startEarly(path: string): void {
  const answer = fetch(`/ui/api${path}`, { credentials: 'same-origin', headers: WINDOW_HEADERS })
    .then(async (response): Promise<EarlyAnswer> => {
      const envelope = (await response.json()) as { success?: boolean; data?: unknown };
      return response.ok && envelope.success === true ? { ok: true, data: envelope.data } : { ok: false };
    })
    .catch((): EarlyAnswer => ({ ok: false }));
  provideEarly(path, answer);
}

/** The answer of `GET /ui/api<path>` as another request brings it (the opening's parts). */
export function provideEarly(path: string, answer: Promise<EarlyAnswer>): void {
  started.set(path, { at: performance.now(), answer });
}

/** The answer started for this path, once; undefined when none was started or it is too old. */
export function takeEarly(path: string): Promise<EarlyAnswer> | undefined {
  const entry = started.get(path);
  if (!entry) return undefined;
  started.delete(path);
  return performance.now() - entry.at <= TTL_MS ? entry.answer : undefined;
}

/** The catalogue changed: answers read before it are not taken any more. */
export function forgetEarly(): void {
  started.clear();
}
