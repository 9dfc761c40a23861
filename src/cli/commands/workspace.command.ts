import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import { withApplication } from './with-app.js';

export async function workspaceCommand(input: CommandInput): Promise<void> {
  const { dataDir, positionals, values, out } = input;
  const [sub, name, ...extra] = positionals;
  if (sub === 'header') {
    if (name)
      throw new UsageError(`pim workspace header takes options only (--workspace NAME), not '${name}'`);
    await (await import('./workspace-header.command.js')).workspaceHeaderCommand(input);
    return;
  }
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
  const path = values.path as string | undefined;
  // As --data-dir: an empty value (an unset shell variable) must not mean the default folder.
  if (path !== undefined && path.trim() === '') throw new UsageError('--path needs a folder; it is empty');
  await withApplication(dataDir, async (app) => {
    const ws = await app.workspaces.create(app.ownerContext(), {
      name,
      path,
      language: values.language as string | undefined,
    });
    out(`Workspace ${ws.name} (id ${ws.id}) created at ${ws.rootpath}`);
  });
}
