import { Application } from '../../app/application.js';
import type { StorageChoice } from '../../db/database-config.js';

/**
 * Opens the data folder's application services for one command, and closes them afterwards;
 * `storage` instead of the folder's choice (`pim setup` looks at the folder's own SQLite files).
 */
export async function withApplication<T>(
  dataDir: string,
  action: (app: Application) => Promise<T>,
  storage?: StorageChoice,
): Promise<T> {
  const app = await Application.open({ dataDir, storage });
  try {
    return await action(app);
  } finally {
    await app.stop();
  }
}
