import type { QueryClient } from '@tanstack/react-query';
import type { GroupChildrenDto } from '../window/group-tree-api.types.js';
import type { OpeningPart } from '../window/opening-api.types.js';
import { groupKeys } from './components/catalogue/group-tree-data.js';
import { gridPreferencesQuery } from './components/catalogue/use-grid-preferences.js';
import { gridKeys } from './components/catalogue/use-grid-rows.js';
import { openingAnswer } from './opening-requests.js';
import { SESSION_KEY, STATUS_KEY } from './query-keys.js';

/**
 * How long the first render waits for the opening's answer. It is usually there before the
 * bundle has run; a slow server (a shared database that does not answer) gets the views'
 * loaders after this instead of an empty page.
 */
const WAIT_MS = 300;

/**
 * Puts the opening's answer (opening-requests.ts) into the query cache before the first render,
 * so the window renders its first screen in one pass: the login screen, or the shell with the
 * catalogue, its count, first rows and tree, instead of a loader per level as each view mounts
 * and asks. Parts that were refused are left out: their views ask and show the refusal as ever.
 */
export async function seedFirstScreen(queryClient: QueryClient): Promise<void> {
  const opening = await Promise.race([
    openingAnswer(),
    new Promise<undefined>((resolve) => setTimeout(resolve, WAIT_MS)),
  ]);
  if (!opening) return;
  const { dto, gridKey } = opening;
  const seed = (key: readonly unknown[], part: OpeningPart | undefined, data = part?.data) => {
    if (part?.success) queryClient.setQueryData(key, data);
  };
  seed(SESSION_KEY, dto.session);
  seed(STATUS_KEY, dto.status);
  seed(gridPreferencesQuery.queryKey, dto.preferences);
  if (gridKey && dto.grid) {
    seed(gridKeys.count(gridKey), dto.grid.count);
    seed(gridKeys.block(gridKey, 0), dto.grid.rows);
  }
  seed(groupKeys.children(null), dto.groups, (dto.groups?.data as GroupChildrenDto | undefined)?.groups);
}
