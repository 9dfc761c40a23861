import { readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import { isUniqueViolation } from '../../db/constraint-errors.js';
import { isConnectionFailure } from '../../db/connection-errors.js';
import { fileSystemReason, makeFolder } from '../../db/file-system.js';
import type { Clock } from '../clock.js';
import { requireRight, systemContext, type RequestContext } from '../context.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { RIGHTS } from '../users/roles.js';
import { normalizeLanguage } from '../languages/language.js';
import { changeStateOf } from '../changes/change-counter.service.js';
import type { ChangeState } from '../changes/change-counter.service.js';
import type { OpenWorkspace } from './open-workspace.js';
import { sqliteWorkspaceStorage, type WorkspaceStorage } from './workspace-storage.js';
import { checkNotBlank } from '../names.js';

export interface WorkspaceDto {
  id: number;
  name: string;
  rootpath: string;
  active: boolean;
  /** The open workspace's change counter, read from its database; null for the others. */
  changeCounter: number | null;
  changedAt: string | null;
}

export const WORKSPACE_NAME_MAX = 128;
const OPEN_STATE_KEY = 'open_workspace_id';

/** The folder name for a workspace name: letters, digits, `_`, `.` and `-`, never `.`, `..` or hidden. */
function slug(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .toLowerCase();
  return base || 'workspace';
}

/** The first of `base`, `base-2`, `base-3`, … that does not exist yet. */
function freeFolder(base: string): string {
  if (!existsSync(base)) return base;
  for (let n = 2; ; n++) if (!existsSync(`${base}-${n}`)) return `${base}-${n}`;
}

// C0 and C1 control characters, and the line and paragraph separators.
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Workspace names are unique case-insensitively in ASCII (SQLite's NOCASE; on PostgreSQL a
 * unique index on lower(name) under the C collation, which folds ASCII only): compared alike.
 */
function sameName(name: string) {
  return sql<boolean>`lower(name) = lower(${name})`;
}

/**
 * The spec's answer to "database unreachable" when a workspace is opened: 400, also when the
 * registry itself is in the shared database that cannot be reached (team mode), and whichever
 * step of the request finds it so (the REST route declares it for its token check too).
 */
export function workspaceDatabaseUnreachable(cause: unknown): ValidationError {
  return new ValidationError(
    'The workspace cannot be opened: its database is unreachable (the PostgreSQL server does not answer)',
    'WORKSPACE_DATABASE_UNREACHABLE',
    { cause },
  );
}

/**
 * The workspace registry (in the system database) and the one open workspace.
 * The open workspace belongs to the application, not to a token: one for everybody.
 */
/** followedWithoutChange's answer when follow() must look. */
export const MUST_FOLLOW = Symbol('must follow');

export class WorkspaceService {
  private active: OpenWorkspace | undefined;
  /**
   * Databases opened in this process stay open until shutdown, so a request still
   * running on a workspace that was just switched away from can finish.
   */
  private readonly opened = new Map<number, OpenWorkspace>();
  /** Opens run one after another: two at once must not both migrate and open a database. */
  private openQueue: Promise<unknown> = Promise.resolve();

  /** The probe's value when the saved open workspace was last read (see follow). */
  private seenVersion: number | undefined;
  /** follow()'s look at the saved open workspace while it runs. */
  private following: Promise<OpenWorkspace | undefined> | undefined;

  private readonly db: Kysely<SystemDatabase>;
  private readonly local: Kysely<SystemDatabase>;
  private readonly storage: WorkspaceStorage;
  /**
   * A number that changes when another process commits to the data folder's own database
   * (SQLite's data_version), where the open workspace is kept: without a change, `follow`
   * costs no query.
   */
  private readonly changeProbe: (() => number) | undefined;

  constructor(
    /** The workspace registry: the data folder's database, or the shared one in team mode. */
    db: Kysely<SystemDatabase>,
    private readonly clock: Clock,
    private readonly dataDir: string,
    options: {
      changeProbe?: () => number;
      /** The data folder's own database (which workspace this instance has open); default `db`. */
      local?: Kysely<SystemDatabase>;
      storage?: WorkspaceStorage;
    } = {},
  ) {
    this.db = db;
    this.local = options.local ?? db;
    this.storage = options.storage ?? sqliteWorkspaceStorage;
    this.changeProbe = options.changeProbe;
  }

  current(): OpenWorkspace | undefined {
    return this.active;
  }

  /**
   * The open workspace when the data folder's database has not changed since the last look, as
   * follow() would return it but without a promise (the check of nearly every request);
   * MUST_FOLLOW when it changed or cannot be probed: then follow() it is.
   */
  followedWithoutChange(): OpenWorkspace | undefined | typeof MUST_FOLLOW {
    if (this.following || !this.changeProbe || this.changeProbe() !== this.seenVersion) return MUST_FOLLOW;
    return this.active;
  }

  /**
   * Follows the workspace the data folder says is open: another process on the same data
   * folder (`pim mcp` beside `pim start`, or the other way round) may have opened another one.
   * Returns the open workspace. A saved workspace that cannot be opened leaves this process's
   * choice as it is (the next request tries again).
   */
  async follow(): Promise<OpenWorkspace | undefined> {
    // A look in progress has already taken the new version as seen, but not yet set the
    // workspace: calls meanwhile (an agent's parallel tool calls) wait for it, then check again.
    while (this.following) await this.following.catch(() => undefined);
    if (this.changeProbe) {
      const version = this.changeProbe();
      if (version === this.seenVersion) return this.active;
      this.seenVersion = version;
    }
    const look = this.look();
    this.following = look;
    try {
      return await look;
    } catch (error) {
      this.seenVersion = undefined; // the next call looks again
      throw error;
    } finally {
      this.following = undefined;
    }
  }

  /** Reads which workspace the data folder says is open, and opens it if it is another. */
  private async look(): Promise<OpenWorkspace | undefined> {
    const id = await this.openWorkspaceId();
    if (id === this.active?.id) return this.active;
    if (id === undefined) return (this.active = undefined);
    const next = this.openQueue.then(async () => {
      const row = await this.resolve({ workspaceId: id });
      const opened = this.opened.get(row.id) ?? (await this.storage.open(row));
      this.opened.set(row.id, opened);
      this.active = opened;
    });
    this.openQueue = next.catch(() => undefined);
    try {
      await next;
    } catch {
      this.seenVersion = undefined;
    }
    return this.active;
  }

  async list(ctx: RequestContext): Promise<WorkspaceDto[]> {
    requireRight(ctx, RIGHTS.read);
    const rows = await this.db.selectFrom('workspace').selectAll().orderBy('id').execute();
    const state = this.active ? await changeStateOf(this.active) : undefined;
    return rows.map((r) => this.toDto(r, state));
  }

  async count(): Promise<number> {
    return (await this.db.selectFrom('workspace').select('id').execute()).length;
  }

  async create(
    ctx: RequestContext,
    input: { name: string; path?: string; language?: string },
  ): Promise<WorkspaceDto> {
    requireRight(ctx, RIGHTS.workspaces);
    const name = input.name.trim();
    if (!name) throw new ValidationError('Workspace name must not be empty');
    checkNotBlank(name, 'Workspace name');
    if (CONTROL_CHARACTERS.test(name)) {
      throw new ValidationError('Workspace name must not contain control characters such as line breaks');
    }
    if (name.length > WORKSPACE_NAME_MAX) {
      throw new ValidationError(`Workspace name must be at most ${WORKSPACE_NAME_MAX} characters`);
    }
    const language = normalizeLanguage(input.language ?? 'deu');
    // A folder of its own: the default one gets a free name, a given one must be empty.
    const rootpath = input.path
      ? resolve(isAbsolute(input.path) ? input.path : resolve(input.path))
      : freeFolder(join(this.dataDir, 'workspaces', slug(name)));
    // The name first: a duplicate name's default folder exists too, and the name is the real problem.
    const taken = await this.db.selectFrom('workspace').select('id').where(sameName(name)).executeTakeFirst();
    if (taken) throw new ConflictError(`Workspace '${name}' already exists`, 'WORKSPACE_EXISTS');
    const existed = existsSync(rootpath);
    if (existed && (!statSync(rootpath).isDirectory() || readdirSync(rootpath).length > 0)) {
      throw new ValidationError(
        `The folder given for workspace '${name}' exists and is not an empty folder`,
        'WORKSPACE_PATH_TAKEN',
      );
    }
    try {
      makeFolder(rootpath, 0o700);
    } catch (error) {
      throw new ValidationError(
        `The folder ${rootpath} for workspace '${name}' cannot be created: ${fileSystemReason(error)}`,
        'VALIDATION_FAILED',
        { cause: error },
      );
    }
    let dbSchema: string | null = null;
    try {
      dbSchema = (await this.storage.create(rootpath, language)).dbSchema;
      const row = await this.db
        .insertInto('workspace')
        .values({ name, rootpath, created_at: this.clock.now().toISOString(), db_schema: dbSchema })
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.toDto(row);
    } catch (error) {
      // Leave nothing behind, and remove nothing that was there: a folder that existed keeps
      // existing (only the database files created in it go); a new one goes.
      await this.storage.remove(rootpath, dbSchema).catch(() => undefined);
      if (!existed) rmSync(rootpath, { recursive: true, force: true });
      if (isUniqueViolation(error))
        throw new ConflictError(`Workspace '${name}' already exists`, 'WORKSPACE_EXISTS');
      throw error;
    }
  }

  /**
   * Opens a workspace for everybody. Serialised: of two opens of the same workspace at once,
   * the first opens it and the second finds it already loaded.
   */
  async open(
    ctx: RequestContext,
    input: { workspaceId?: number; workspaceName?: string },
  ): Promise<WorkspaceDto> {
    requireRight(ctx, RIGHTS.workspaces);
    const next = this.openQueue
      .then(() => this.openNow(input))
      .catch((error: unknown) => {
        if (isConnectionFailure(error)) throw workspaceDatabaseUnreachable(error);
        throw error;
      });
    this.openQueue = next.catch(() => undefined);
    return next;
  }

  private async openNow(input: { workspaceId?: number; workspaceName?: string }): Promise<WorkspaceDto> {
    const row = await this.resolve(input);
    if (this.active?.id === row.id) {
      throw new ValidationError(`Workspace '${row.name}' is already loaded`, 'WORKSPACE_ALREADY_LOADED');
    }
    const opened = this.opened.get(row.id) ?? (await this.storage.open(row));
    this.opened.set(row.id, opened);
    this.active = opened;
    await this.local
      .insertInto('app_state')
      .values({ key: OPEN_STATE_KEY, value: String(row.id) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(row.id) }))
      .execute();
    return this.toDto(row, await changeStateOf(opened));
  }

  /**
   * A workspace to work on for one task (`pim import --workspace NAME`) without making it the data
   * folder's open workspace: a running `pim start` and the window keep theirs. Closed with the others.
   */
  async workspaceFor(
    ctx: RequestContext,
    input: { workspaceId?: number; workspaceName?: string },
  ): Promise<OpenWorkspace> {
    requireRight(ctx, RIGHTS.read);
    const row = await this.resolve(input);
    const opened = this.opened.get(row.id) ?? (await this.storage.open(row));
    this.opened.set(row.id, opened);
    return opened;
  }

  /** The id of the workspace the application has open (or last had open), from the system database. */
  async openWorkspaceId(): Promise<number | undefined> {
    const state = await this.local
      .selectFrom('app_state')
      .select('value')
      .where('key', '=', OPEN_STATE_KEY)
      .executeTakeFirst();
    return state ? Number(state.value) : undefined;
  }

  /** Reopens the workspace that was open when the application last ran; returns why not, if it fails. */
  async reopenLast(): Promise<{ workspace?: WorkspaceDto; problem?: string }> {
    const id = await this.openWorkspaceId();
    if (id === undefined) return {};
    try {
      return { workspace: await this.open(systemContext(this.clock), { workspaceId: id }) };
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  }

  async closeAll(): Promise<void> {
    this.active = undefined;
    const handles = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(handles.map((h) => h.close()));
  }

  private async resolve(input: { workspaceId?: number; workspaceName?: string }) {
    if (input.workspaceId === undefined && input.workspaceName === undefined) {
      throw new ValidationError('workspaceId or workspaceName is required');
    }
    const byId =
      input.workspaceId === undefined
        ? undefined
        : await this.db
            .selectFrom('workspace')
            .selectAll()
            .where('id', '=', input.workspaceId)
            .executeTakeFirst();
    const byName =
      input.workspaceName === undefined
        ? undefined
        : await this.db
            .selectFrom('workspace')
            .selectAll()
            .where(sameName(input.workspaceName))
            .executeTakeFirst();
    if (input.workspaceId !== undefined && !byId)
      throw new NotFoundError(`Workspace ${input.workspaceId} not found`, 'WORKSPACE_NOT_FOUND');
    if (input.workspaceName !== undefined && !byName) {
      throw new NotFoundError(`Workspace '${input.workspaceName}' not found`, 'WORKSPACE_NOT_FOUND');
    }
    if (byId && byName && byId.id !== byName.id) {
      throw new ValidationError('workspaceId and workspaceName name different workspaces');
    }
    return (byId ?? byName)!;
  }

  private toDto(row: { id: number; name: string; rootpath: string }, state?: ChangeState): WorkspaceDto {
    const active = this.active?.id === row.id;
    return {
      id: row.id,
      name: row.name,
      rootpath: row.rootpath,
      active,
      changeCounter: active && state ? state.value : null,
      changedAt: active && state ? state.stamp : null,
    };
  }
}
