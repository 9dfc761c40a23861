import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../domain/clock.js';
import { RIGHTS, runInTransaction, systemContext, type RequestContext } from '../domain/context.js';
import { listGroups } from '../domain/groups/group.service.js';
import { listProducts } from '../domain/products/product.service.js';
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
 * Marks a first run under way in the data folder until it is complete. A first run writes in
 * several steps (a user in the system database, a workspace with its own database, settings):
 * a crash between them used to leave an admin whose generated password was never shown, and a
 * data folder no longer pristine, so nobody could log in. With the marker left behind, the next
 * start finishes the first run instead (firstRunSetup again). A generated password ends the first
 * run only when it was shown (firstRunShown): a crash before the banner is a crash in the first run.
 */
const MARKER = 'first-run.pending';

/** Ends the first run once its generated password was shown (by `pim start`'s banner). */
export function firstRunShown(dataDir: string): void {
  rmSync(join(dataDir, MARKER), { force: true });
}

/** True when a first run began in this data folder and did not finish. */
export function firstRunPending(dataDir: string): boolean {
  return existsSync(join(dataDir, MARKER));
}

/**
 * The first-run wizard of decisions.md: an admin user, a demo workspace with sample data, opened,
 * and the REST server enabled on its default port. Each step can be taken again: run anew after
 * an interrupted first run, it sets the admin's password afresh (the one shown now is the only one
 * anybody saw), keeps a demo workspace that was created and seeds it only if the seeding did not
 * commit (it is one transaction: the demo is complete or empty).
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
  const marker = join(deps.dataDir, MARKER);
  const resuming = existsSync(marker);
  writeFileSync(marker, 'A first run of pim began here; the next start finishes it.\n');
  const passwordGenerated = !deps.adminPassword;
  const adminPassword = deps.adminPassword || generatePassword();
  const admin = await deps.users.findByName(deps.ctx, 'admin');
  if (admin) await deps.users.setPassword(deps.ctx, admin.id, adminPassword);
  else await deps.users.add(deps.ctx, { username: 'admin', role: 'ADMIN', password: adminPassword });
  const path = join(deps.dataDir, 'workspaces', 'demo');
  const registered = await deps.workspaces.list(deps.ctx);
  const existing = registered.find((w) => w.name === 'Demo' && w.rootpath === path);
  // A demo folder that no workspace owns was left by a crash inside `create`: it is ours to redo.
  if (!existing && resuming && !registered.some((w) => w.rootpath === path)) {
    rmSync(path, { recursive: true, force: true });
  }
  const created =
    existing ?? (await deps.workspaces.create(deps.ctx, { name: 'Demo', path, language: 'deu' }));
  // At start nothing is open yet, so the demo is opened whether it was created now or before.
  const workspace = await deps.workspaces.open(deps.ctx, { workspaceId: created.id });
  const ctx = systemContext(deps.clock, deps.workspaces.current());
  const present = (await listProducts(ctx, { all: true })).length;
  const counts = present
    ? { products: present, groups: (await listGroups(ctx)).length }
    : await runInTransaction(ctx, RIGHTS.edit, async (trx) => ({
        products: (await seedDemoCatalogue(trx)).products,
        groups: await seedDemoGroups(trx),
      }));
  await deps.settings.update(deps.ctx, { 'rest.enabled': true });
  // A generated password is known once it is shown: until then, a crash must lead to a new one.
  if (!passwordGenerated) firstRunShown(deps.dataDir);
  return { adminPassword, passwordGenerated, workspace, ...counts };
}
