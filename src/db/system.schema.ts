import type { Generated } from 'kysely';

/** The schema of the shared system tables in team mode. */
export const SHARED_SCHEMA = 'pim';

/** Tables of the system database in the data folder. */
export interface SystemDatabase {
  user: UserTable;
  session: SessionTable;
  setting: SettingTable;
  workspace: WorkspaceTable;
  app_state: AppStateTable;
  user_preference: UserPreferenceTable;
  job: JobTable;
}

/**
 * Long work (imports, exports, mass edits): one row per job, in the shared database in team mode so
 * that every instance sees every job (domain/jobs/job.service.ts).
 */
export interface JobTable {
  id: Generated<number>;
  kind: string;
  workspace_id: number | null;
  state: string;
  processed: number;
  total: number | null;
  created_by: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The instance running it (its machine id): a crash of it leaves the job without heartbeat. */
  runner: string;
  heartbeat_at: string;
  cancel_requested: number;
  /** The input's summary (file name...), JSON. */
  input_json: string;
  /** The report of a finished job, JSON; null before. */
  report_json: string | null;
  /** Why it failed: a sentence, and where (JSON), or null. */
  error_json: string | null;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
  /** 1: the user cannot log in and holds no sessions. */
  disabled: Generated<number>;
  /** The last successful login (REST token or desktop), UTC ISO 8601; null: never. */
  last_login_at: string | null;
  /** Grows whenever every session of the user is ended (logout of all, disable). */
  session_generation: Generated<number>;
}

export interface SessionTable {
  token_hash: string;
  user_id: number;
  issued_at: string;
  expires_at: string;
  remote_address: string;
  /** The pim instance (its data folder's machine id) that issued it; null: issued before 0002, this machine's. */
  machine_id: string | null;
  kind: Generated<SessionKind>;
}

/** A bearer token (REST, MCP over HTTP) or the window's desktop session (one per instance). */
export type SessionKind = 'token' | 'desktop';

export interface SettingTable {
  key: string;
  /** JSON-encoded value. */
  value: string;
}

export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  rootpath: string;
  created_at: string;
  /** Team mode: the PostgreSQL schema of the workspace's catalogue; null on SQLite. */
  db_schema: string | null;
}

/** Application state that is not a user setting (which workspace is open). */
export interface AppStateTable {
  key: string;
  value: string;
}

/** A user's choice in the window, by name (e.g. 'grid'), as JSON text. */
export interface UserPreferenceTable {
  user_id: number;
  name: string;
  value: string;
}
