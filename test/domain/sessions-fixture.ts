import { randomUUID } from 'node:crypto';
import type { SqliteHandle } from '../../src/db/sqlite.js';
import type { SystemDatabase } from '../../src/db/system.schema.js';
import { openSystemStore } from '../../src/app/system-store.js';
import { ManualClock } from '../../src/domain/clock.js';
import { systemContext, type RequestContext } from '../../src/domain/context.js';
import type { DesktopSessionEnded } from '../../src/domain/sessions/desktop-slot.js';
import { SessionService } from '../../src/domain/sessions/session.service.js';
import { rightsOf, type Role } from '../../src/domain/users/roles.js';
import { UserService } from '../../src/domain/users/user.service.js';
import { removeDir, tempDir } from '../helpers/temp.js';

/**
 * Two pim instances on ONE system database, as in team mode: each with its own machine id and
 * its own services, on its own connection to the data folder's database (or, for races, one
 * shared connection: two connections in one process would block each other's event loop).
 */
export interface Instance {
  machineId: string;
  sessions: SessionService;
  users: UserService;
  /** The desktop-session ends this instance reported, in order. */
  ended: DesktopSessionEnded[];
}

export interface TwoInstances {
  dir: string;
  clock: ManualClock;
  a: Instance;
  b: Instance;
  owner: RequestContext;
  /** Ids of the users every fixture has: admin (ADMIN), alice (EDITOR), bob (VIEWER). */
  ids: { admin: number; alice: number; bob: number };
  /** A context of a user of the given role (for rights checks). */
  as(role: Role, id?: number): RequestContext;
  /** A second SessionService for instance A on the same database, as after a restart. */
  restartA(): SessionService;
  close(): Promise<void>;
}

export const PASSWORD = { admin: 'admin-password', alice: 'alice-password', bob: 'bob-password' } as const;

export async function twoInstances(options: { sharedConnection?: boolean } = {}): Promise<TwoInstances> {
  const dir = tempDir('pim-sessions-');
  const clock = new ManualClock(new Date('2026-03-02T08:00:00.000Z'));
  const handles: SqliteHandle<SystemDatabase>[] = [await openSystemStore(dir)];
  if (!options.sharedConnection) handles.push(await openSystemStore(dir));
  const owner = systemContext(clock);

  const instance = (handle: SqliteHandle<SystemDatabase>): Instance => {
    const machineId = randomUUID();
    const users = new UserService(handle.db, clock);
    const sessions = new SessionService(handle.db, clock, { machineId });
    users.useSessions(sessions);
    const ended: DesktopSessionEnded[] = [];
    sessions.onDesktopSessionEnded((event) => ended.push(event));
    return { machineId, sessions, users, ended };
  };
  const a = instance(handles[0]!);
  const b = instance(handles[handles.length - 1]!);
  const add = async (username: keyof typeof PASSWORD, role: Role) =>
    (await a.users.add(owner, { username, role, password: PASSWORD[username] })).id;
  const ids = {
    admin: await add('admin', 'ADMIN'),
    alice: await add('alice', 'EDITOR'),
    bob: await add('bob', 'VIEWER'),
  };

  return {
    dir,
    clock,
    a,
    b,
    owner,
    ids,
    as: (role, id = 1000) => ({
      actor: { id, username: role.toLowerCase(), role, rights: rightsOf(role) },
      clock,
    }),
    restartA: () => new SessionService(handles[0]!.db, clock, { machineId: a.machineId }),
    async close() {
      for (const handle of handles) await handle.close();
      removeDir(dir);
    },
  };
}

/** Where logins come from in these tests. */
export const LOCAL = { address: '127.0.0.1' };
