import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api.js';
import { completePreferences, type GridPreferences } from './grid-columns.js';

/** How long the columns must rest before they are saved (a resize or several toggles are one save). */
const SAVE_MS = 600;

/** The saved choice as the window reads it (the shell asks for it with the status: the grid opens sooner). */
export const gridPreferencesQuery = {
  queryKey: ['preferences', 'grid'],
  queryFn: () => api<{ value: GridPreferences | null }>('GET', '/preferences/grid'),
  staleTime: Infinity,
};

/**
 * The user's grid columns and sort: read from the server (they follow the user to another
 * machine), changed at once on screen, saved once the changes rest.
 */
export function useGridPreferences(): [GridPreferences | undefined, (next: GridPreferences) => void] {
  const saved = useQuery(gridPreferencesQuery);
  const [local, setLocal] = useState<GridPreferences | undefined>();
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  const change = useCallback((next: GridPreferences) => {
    setLocal(next);
    clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      // A failed save leaves the choice on screen for this session: nothing the user must act on.
      api('PUT', '/preferences/grid', next).catch(() => undefined);
    }, SAVE_MS);
  }, []);
  // Without the server's answer (an error, a very old pim): the defaults.
  const current = local ?? (saved.isPending ? undefined : completePreferences(saved.data?.value ?? null));
  return [current, change];
}
