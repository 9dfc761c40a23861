import { Application } from '../../app/application.js';

/** Opens the data folder's application services for one command, and closes them afterwards. */
export async function withApplication<T>(
  dataDir: string,
  action: (app: Application) => Promise<T>,
): Promise<T> {
  const app = await Application.open({ dataDir });
  try {
    return await action(app);
  } finally {
    await app.stop();
  }
}
