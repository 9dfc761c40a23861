import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { requireRight, type RequestContext } from '../context.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { deleteSessionsOf } from '../sessions/session.repository.js';
import { guardUnique } from '../unique.js';
import { checkedUsername, checkPassword, sameUsername } from './credential-rules.js';
import { hashPassword } from './password.js';
import { isRole, RIGHTS, ROLES, rightsOf, type Right, type Role } from './roles.js';
import {
  countEnabledAdmins,
  findUserById,
  findUserByLoginName,
  insertUser,
  listUsernames,
  listUsers,
  lockEnabledAdmins,
  updateUser,
  type UserRow,
} from './user.repository.js';

export interface User {
  id: number;
  username: string;
  role: Role;
  rights: readonly Right[];
  createdAt: string;
}

/** How often every session of a user had been ended when a connection logged in. */
export interface SessionGeneration {
  generation: number;
}

/** A user as the administration sees it. */
export interface UserAccount extends User {
  disabled: boolean;
  /** The last successful login (REST token or desktop), UTC; null: never. */
  lastLoginAt: string | null;
}

/** What user administration needs from the session service (implemented by SessionService). */
export interface UserSessions {
  /**
   * Runs `change` so that no cached session of the user outlives it; with `ended`, the user's
   * desktop session ends with that reason.
   */
  changeUser<T>(userId: number, change: () => Promise<T>, ended?: 'disabled' | 'sessions-ended'): Promise<T>;
  /** Ends every session of the user (tokens and the desktop session); returns how many. */
  endSessionsOf(ctx: RequestContext, userId: number): Promise<number>;
}

export function toUser(row: { id: number; username: string; role: string; created_at: string }): User {
  const role = isRole(row.role) ? row.role : 'VIEWER';
  return { id: row.id, username: row.username, role, rights: rightsOf(role), createdAt: row.created_at };
}

function toAccount(row: UserRow): UserAccount {
  return { ...toUser(row), disabled: row.disabled === 1, lastLoginAt: row.last_login_at };
}

function checkRole(role: string): asserts role is Role {
  if (!isRole(role)) throw new ValidationError(`role '${role}' is unknown; use one of ${ROLES.join(', ')}`);
}

function userExists(username: string): ConflictError {
  return new ConflictError(`User '${username}' already exists`, 'USER_EXISTS');
}

function userNotFound(id: number): NotFoundError {
  return new NotFoundError(`User ${id} not found`, 'USER_NOT_FOUND');
}

/**
 * Users and their administration (right Benutzerverwaltung). Role and enabled-state changes
 * keep at least one enabled ADMIN (409 LAST_ADMIN); disabling ends the user's sessions.
 */
export class UserService {
  private sessions: UserSessions | undefined;

  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
  ) {}

  /** Connects the session service, so that changes reach cached and desktop sessions at once. */
  useSessions(sessions: UserSessions): void {
    this.sessions = sessions;
  }

  async add(
    ctx: RequestContext,
    input: { username: string; role: string; password: string },
  ): Promise<UserAccount> {
    requireRight(ctx, RIGHTS.users);
    const username = checkedUsername(input.username);
    checkRole(input.role);
    checkPassword(input.password);
    // The unique index compares stored text, and names stored before they were normalised may
    // be in another form (NFD): a new name must not look like one of them either.
    const taken = (await listUsernames(this.db)).find((name) => sameUsername(name, username));
    if (taken !== undefined) throw userExists(username);
    const passwordHash = await hashPassword(input.password);
    const row = await guardUnique(
      () =>
        insertUser(this.db, {
          username,
          password_hash: passwordHash,
          role: input.role,
          created_at: this.clock.now().toISOString(),
        }),
      () => userExists(username),
    );
    return toAccount(row);
  }

  async list(ctx: RequestContext): Promise<UserAccount[]> {
    requireRight(ctx, RIGHTS.users);
    return (await listUsers(this.db)).map(toAccount);
  }

  /** The user of a name as a login finds it (case-insensitive, as names are unique), if any. */
  async findByName(ctx: RequestContext, username: string): Promise<UserAccount | undefined> {
    requireRight(ctx, RIGHTS.users);
    const row = await findUserByLoginName(this.db, username);
    return row ? toAccount(row) : undefined;
  }

  /** The id of the user of a name (the CLI names users); 404 USER_NOT_FOUND. */
  async idOf(ctx: RequestContext, username: string): Promise<number> {
    const user = await this.findByName(ctx, username);
    if (!user) throw new NotFoundError(`User '${username}' not found`, 'USER_NOT_FOUND');
    return user.id;
  }

  /**
   * The user as it is now, for a session that holds no token (a `pim mcp` process): refused
   * (401) once disabled or removed; a changed role applies to the next call.
   */
  async current(id: number, loggedInAt?: SessionGeneration): Promise<User> {
    const row = await findUserById(this.db, id);
    if (!row) throw new UnauthorizedError('The user no longer exists', 'TOKEN_INVALID');
    if (row.disabled === 1)
      throw new UnauthorizedError(`User '${row.username}' is disabled`, 'USER_DISABLED');
    if (loggedInAt !== undefined && row.session_generation !== loggedInAt.generation) {
      throw new UnauthorizedError(
        `The sessions of user '${row.username}' were ended since this connection logged in: connect again to log in`,
        'TOKEN_INVALID',
      );
    }
    return toUser(row);
  }

  /**
   * Where the user's sessions stand now, for a connection that logs in without a session row
   * (`pim mcp` over stdio): `current(id, generation)` refuses once their sessions were ended.
   */
  async sessionGeneration(id: number): Promise<SessionGeneration> {
    const row = await findUserById(this.db, id);
    if (!row) throw new UnauthorizedError('The user no longer exists', 'TOKEN_INVALID');
    return { generation: row.session_generation };
  }

  async get(id: number): Promise<User | undefined> {
    const row = await findUserById(this.db, id);
    return row ? toUser(row) : undefined;
  }

  /** Changes the role; the user's sessions get the new rights with their next request. */
  async setRole(ctx: RequestContext, id: number, role: string): Promise<UserAccount> {
    requireRight(ctx, RIGHTS.users);
    checkRole(role);
    return this.changeAccount(id, { role }, 'demoted');
  }

  /** Sets a new password (the rules of `add`). The user's sessions stay; `endSessions` ends them. */
  async setPassword(ctx: RequestContext, id: number, password: string): Promise<UserAccount> {
    requireRight(ctx, RIGHTS.users);
    checkPassword(password);
    const row = await findUserById(this.db, id);
    if (!row) throw userNotFound(id);
    if (!(await updateUser(this.db, id, { password_hash: await hashPassword(password) }))) {
      throw userNotFound(id);
    }
    return toAccount(row);
  }

  /**
   * Disables or enables a user. Disabling ends every session of the user in the same
   * transaction (their tokens and desktop session stop working at once); a disabled user
   * cannot log in (401 USER_DISABLED).
   */
  async setDisabled(ctx: RequestContext, id: number, disabled: boolean): Promise<UserAccount> {
    requireRight(ctx, RIGHTS.users);
    return this.changeAccount(id, { disabled: disabled ? 1 : 0 }, 'disabled');
  }

  /** Ends every session of a user (tokens and the desktop session), e.g. after a lost laptop. */
  async endSessions(ctx: RequestContext, id: number): Promise<number> {
    if (this.sessions) return this.sessions.endSessionsOf(ctx, id);
    requireRight(ctx, RIGHTS.users);
    if (!(await findUserById(this.db, id))) throw userNotFound(id);
    return this.db.transaction().execute((trx) => deleteSessionsOf(trx, id));
  }

  /**
   * One transaction: lock the enabled administrators, change the row, and refuse (roll back)
   * when no enabled ADMIN is left; disabling also deletes the user's sessions.
   */
  private async changeAccount(
    id: number,
    changes: { role?: Role; disabled?: 0 | 1 },
    what: 'demoted' | 'disabled',
  ): Promise<UserAccount> {
    const apply = () =>
      this.db.transaction().execute(async (trx) => {
        await lockEnabledAdmins(trx);
        const row = await findUserById(trx, id);
        if (!row) throw userNotFound(id);
        await updateUser(trx, id, changes);
        if (row.role === 'ADMIN' && row.disabled === 0 && (await countEnabledAdmins(trx)) === 0) {
          throw new ConflictError(
            `User '${row.username}' is the last enabled ADMIN and cannot be ${what}; make another user ADMIN first`,
            'LAST_ADMIN',
          );
        }
        if (changes.disabled === 1) await deleteSessionsOf(trx, id);
        return toAccount({ ...row, ...changes });
      });
    const ended = changes.disabled === 1 ? 'disabled' : undefined;
    return this.sessions ? this.sessions.changeUser(id, apply, ended) : apply();
  }
}
