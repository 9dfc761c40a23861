import { afterEach, beforeEach } from 'vitest';
import { Application } from '../../src/app/application.js';
import type { RequestContext } from '../../src/domain/context.js';
import { newDataDir, removeDataDir } from './backend.js';

/**
 * For domain tests that call services directly: before each test an application on a new data
 * folder of the test backend with one open workspace, the machine owner's context on it, and
 * both gone after the test.
 */
export function workspaceApplicationPerTest(
  prefix: string,
  workspaceName: string,
): { owner: () => RequestContext; app: () => Application } {
  let dir: string | undefined;
  let app: Application | undefined;
  let owner: RequestContext | undefined;
  beforeEach(async () => {
    dir = await newDataDir(prefix);
    app = await Application.open({ dataDir: dir });
    const ws = await app.workspaces.create(app.ownerContext(), { name: workspaceName, language: 'deu' });
    await app.workspaces.open(app.ownerContext(), { workspaceId: ws.id });
    owner = app.ownerContext();
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    await removeDataDir(dir);
  });
  return { owner: () => owner!, app: () => app! };
}
