import { dropTestDatabases, TEST_BACKEND, testRunId } from './helpers/backend.js';

/**
 * On PostgreSQL: name this run (its workers inherit the name through the environment), drop the
 * test databases killed runs left behind, and this run's own at its end. Fails at once when the
 * server cannot be reached: CI must not skip the second pass.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (TEST_BACKEND !== 'postgres') return async () => undefined;
  testRunId();
  await dropTestDatabases('stale');
  return () => dropTestDatabases('this-run');
}
