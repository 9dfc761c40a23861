import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../domain/clock.js';
import { systemContext, type RequestContext } from '../domain/context.js';
import type { SettingsService } from '../domain/settings/settings.service.js';
import type { UserService } from '../domain/users/user.service.js';
import type { WorkspaceService, WorkspaceDto } from '../domain/workspaces/workspace.service.js';
import { seedDemoCatalogue } from './demo-catalogue.js';
import { seedDemoGroups } from './demo-groups.js';

export interface FirstRunReport {
  adminPassword: string;
  passwordGenerated: boolean;
  workspace: WorkspaceDto;
  products: number;
  groups: number;
}

/** True for a data folder without any user, workspace or setting: only then is the first-run setup done. */
export async function isPristine(
  deps: {
    users: UserService;
    workspaces: WorkspaceService;
    settings: SettingsService;
  },
  ctx: RequestContext,
): Promise<boolean> {
  return (
    (await deps.users.list(ctx)).length === 0 &&
    (await deps.workspaces.count()) === 0 &&
    !(await deps.settings.anyStored())
  );
}

/** A random password that is easy to type from a printout: 4 groups of 5 letters and digits. */
function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(20);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}

/**
 * The first-run wizard of decisions.md: an admin user, a demo workspace with sample
 * data, opened, and the REST server enabled on its default port.
 */
export async function firstRunSetup(deps: {
  ctx: RequestContext;
  users: UserService;
  workspaces: WorkspaceService;
  settings: SettingsService;
  clock: Clock;
  dataDir: string;
  adminPassword?: string;
}): Promise<FirstRunReport> {
  const passwordGenerated = !deps.adminPassword;
  const adminPassword = deps.adminPassword || generatePassword();
  await deps.users.add(deps.ctx, { username: 'admin', role: 'ADMIN', password: adminPassword });
  const created = await deps.workspaces.create(deps.ctx, {
    name: 'Demo',
    path: join(deps.dataDir, 'workspaces', 'demo'),
    language: 'deu',
  });
  const workspace = await deps.workspaces.open(deps.ctx, { workspaceId: created.id });
  const ctx = systemContext(deps.clock, deps.workspaces.current());
  const { products } = await seedDemoCatalogue(ctx);
  const groups = await seedDemoGroups(ctx);
  await deps.settings.set('rest.enabled', true);
  return { adminPassword, passwordGenerated, workspace, products, groups };
}
