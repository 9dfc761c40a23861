import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import type { Clock } from '../clock.js';
import { requireRight, type RequestContext } from '../context.js';
import { ConflictError, ValidationError } from '../errors.js';
import { guardUnique } from '../unique.js';
import { hashPassword } from './password.js';
import { isRole, RIGHTS, ROLES, rightsOf, type Right, type Role } from './roles.js';
import { findUserById, insertUser, listUsers } from './user.repository.js';

export interface User {
  id: number;
  username: string;
  role: Role;
  rights: readonly Right[];
  createdAt: string;
}

export const USERNAME_MAX = 64;
export const PASSWORD_MAX = 1024;

export function toUser(row: { id: number; username: string; role: string; created_at: string }): User {
  const role = isRole(row.role) ? row.role : 'VIEWER';
  return { id: row.id, username: row.username, role, rights: rightsOf(role), createdAt: row.created_at };
}

export class UserService {
  constructor(
    private readonly db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
  ) {}

  async add(ctx: RequestContext, input: { username: string; role: string; password: string }): Promise<User> {
    requireRight(ctx, RIGHTS.users);
    const username = input.username.trim();
    if (username.length === 0) throw new ValidationError('username must not be empty');
    if (username.length > USERNAME_MAX)
      throw new ValidationError(`username must be at most ${USERNAME_MAX} characters`);
    if (/[\s:]/.test(username)) throw new ValidationError('username must not contain spaces or colons');
    if (!isRole(input.role))
      throw new ValidationError(`role '${input.role}' is unknown; use one of ${ROLES.join(', ')}`);
    if (input.password.length === 0) throw new ValidationError('password must not be empty');
    if (input.password.length > PASSWORD_MAX)
      throw new ValidationError(`password must be at most ${PASSWORD_MAX} characters`);
    const passwordHash = await hashPassword(input.password);
    const row = await guardUnique(
      () =>
        insertUser(this.db, {
          username,
          password_hash: passwordHash,
          role: input.role,
          created_at: this.clock.now().toISOString(),
        }),
      () => new ConflictError(`User '${username}' already exists`, 'USER_EXISTS'),
    );
    return toUser(row);
  }

  async list(ctx: RequestContext): Promise<User[]> {
    requireRight(ctx, RIGHTS.users);
    return (await listUsers(this.db)).map(toUser);
  }

  async get(id: number): Promise<User | undefined> {
    const row = await findUserById(this.db, id);
    return row ? toUser(row) : undefined;
  }
}
