import { dropLeftoverDatabases, TEST_BACKEND } from './helpers/backend.js';

/**
 * On PostgreSQL, fail at once when the server cannot be reached (CI must not skip the second
 * pass), and drop test databases a killed run left behind, before and after the run.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (TEST_BACKEND === 'postgres') await dropLeftoverDatabases();
  return async () => {
    if (TEST_BACKEND === 'postgres') await dropLeftoverDatabases();
  };
}
