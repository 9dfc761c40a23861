import { TEST_BACKEND } from './backend.js';

/**
 * The status a request with a token gets after the token's sessions were ended by another process
 * (the CLI, another instance). On SQLite the running application sees the commit in the very next
 * request (`PRAGMA data_version`), so one request must answer. On PostgreSQL it learns of it through
 * LISTEN/NOTIFY, within milliseconds but not before the other process returns (docs/storage.md,
 * "Sessions across instances"): the request is repeated while it still succeeds, for up to a second.
 */
export async function statusAfterSessionsEnded(request: () => Promise<number>): Promise<number> {
  let status = await request();
  if (TEST_BACKEND !== 'postgres') return status;
  const since = Date.now();
  while (status === 200 && Date.now() - since < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await request();
  }
  return status;
}
