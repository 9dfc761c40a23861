import type { RestState } from '../window/window-api.types.js';

/** Addresses that mean "every interface": a browser cannot go there, but to any of this machine's names. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Where Help › API reference opens: the reference page of the REST server as it runs now, or
 * undefined while it does not run (there is nothing to open). Bound to every interface, it is
 * reached by the name the window itself was opened with.
 */
export function apiReferenceUrl(rest: RestState | undefined, windowHostname: string): string | undefined {
  if (!rest?.running) return undefined;
  const host = WILDCARDS.has(rest.host)
    ? windowHostname
    : rest.host.includes(':')
      ? `[${rest.host}]`
      : rest.host;
  return `http://${host}:${rest.port}/api/docs`;
}
