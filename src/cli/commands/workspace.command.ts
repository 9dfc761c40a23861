import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../main.js';
import { withApplication } from './with-app.js';

export async function workspaceCommand({ dataDir, positionals, values, out }: CommandInput): Promise<void> {
  const [sub, name, ...extra] = positionals;
  if (sub === 'list') {
    if (name) throw new UsageError('pim workspace list takes no arguments');
    await withApplication(dataDir, async (app) => {
      const openId = await app.workspaces.openWorkspaceId();
      for (const ws of await app.workspaces.list(app.ownerContext())) {
        out([ws.id, ws.name, ws.rootpath, ws.id === openId ? 'open' : ''].join('\t').trimEnd());
      }
    });
    return;
  }
  if (!name) throw new UsageError('pim workspace create needs a workspace name');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  await withApplication(dataDir, async (app) => {
    const ws = await app.workspaces.create(app.ownerContext(), {
      name,
      path: values.path as string | undefined,
      language: values.language as string | undefined,
    });
    out(`Workspace ${ws.name} (id ${ws.id}) created at ${ws.rootpath}`);
  });
}
