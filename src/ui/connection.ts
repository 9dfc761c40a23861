import { useSyncExternalStore } from 'react';

/**
 * Whether the window's server answers. Every request and the push channel report here, so the
 * status bar can say "connection lost" instead of showing the last facts it heard as if live.
 */
let lost = false;
const listeners = new Set<() => void>();

export function reportConnection(reachable: boolean): void {
  if (lost === !reachable) return;
  lost = !reachable;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectionLost(): boolean {
  return useSyncExternalStore(subscribe, () => lost);
}
