import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { RIGHTS } from './api.js';
import { mayLeave, navigate } from './catalogue-route.js';

/** The window's views, each at its own address: #/ (the catalogue, its state after ?), #/monitor, #/users. */
export const VIEWS = ['home', 'monitor', 'users'] as const;
export type View = (typeof VIEWS)[number];

/** The right a view needs (the server refuses its requests without it); none for the others. */
const VIEW_RIGHT: Partial<Record<View, string>> = { users: RIGHTS.users };

export function viewAllowed(view: View, rights: readonly string[]): boolean {
  const right = VIEW_RIGHT[view];
  return right === undefined || rights.includes(right);
}

function hashOf(view: View): string {
  return view === 'home' ? '#/' : `#/${view}`;
}

/** The view an address names; undefined for one the window does not know. */
function viewOf(hash: string): View | undefined {
  // The home view (the catalogue) keeps its state in the address's query: #/?q=…
  if (hash === '' || hash === '#' || hash === '#/' || hash.startsWith('#/?')) return 'home';
  const name = hash.startsWith('#/') ? hash.slice(2) : '';
  return (VIEWS as readonly string[]).includes(name) && name !== 'home' ? (name as View) : undefined;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/**
 * The current view, kept in the address's fragment: Reload keeps it, and every change of view is
 * a history entry, so Back and Forward move between views. An address the window does not know,
 * or a view the user's role may not see, shows the home view, and the address is corrected
 * (replaced, not a new entry) to say so.
 */
export function useViewRoute(rights: readonly string[]): [View, (view: View) => void] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const named = viewOf(hash);
  const view = named !== undefined && viewAllowed(named, rights) ? named : 'home';
  useEffect(() => {
    if (viewOf(hash) !== view) window.history.replaceState(window.history.state, '', hashOf(view));
  }, [hash, view]);
  const show = useCallback((next: View) => {
    if (viewOf(window.location.hash) !== next && mayLeave()) navigate(hashOf(next));
  }, []);
  return [view, show];
}
