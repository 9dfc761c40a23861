import { sql, type Migration } from 'kysely';

export const systemMigrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db) {
      await sql`CREATE TABLE user (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL COLLATE NOCASE UNIQUE,
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('ADMIN', 'EDITOR', 'VIEWER')),
        created_at TEXT NOT NULL
      )`.execute(db);
      await sql`CREATE TABLE session (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
        issued_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        remote_address TEXT NOT NULL
      ) WITHOUT ROWID`.execute(db);
      await sql`CREATE INDEX session_user ON session(user_id)`.execute(db);
      await sql`CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`.execute(db);
      await sql`CREATE TABLE workspace (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL COLLATE NOCASE UNIQUE,
        rootpath TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`.execute(db);
      await sql`CREATE TABLE app_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`.execute(db);
    },
  },
  '0002_machines_desktop_users': {
    async up(db) {
      // The instance that issued a session (decisions: "another machine" is another pim instance
      // on the same system database). NULL for sessions issued before this migration: only one
      // instance could use a data folder's database then, so they count as this machine's.
      await sql`ALTER TABLE session ADD COLUMN machine_id TEXT`.execute(db);
      // 'token' (REST/MCP bearer token) or 'desktop' (the window's session, one per instance).
      await sql`ALTER TABLE session ADD COLUMN kind TEXT NOT NULL DEFAULT 'token'
        CHECK (kind IN ('token', 'desktop'))`.execute(db);
      // One desktop session per instance: the index is the guard, not a read before the write.
      await sql`CREATE UNIQUE INDEX session_desktop ON session(machine_id) WHERE kind = 'desktop'`.execute(
        db,
      );
      await sql`ALTER TABLE user ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0
        CHECK (disabled IN (0, 1))`.execute(db);
      await sql`ALTER TABLE user ADD COLUMN last_login_at TEXT`.execute(db);
    },
  },
  '0003_workspace_schema': {
    async up(db) {
      // Team mode keeps each workspace in a PostgreSQL schema named here; on SQLite it is null
      // (the workspace is the file in its folder). Kept in both dialects: one registry shape.
      await sql`ALTER TABLE workspace ADD COLUMN db_schema TEXT`.execute(db);
    },
  },
  '0004_session_generation': {
    async up(db) {
      // Grows whenever every session of the user is ended (logout of all, disable): a connection
      // that holds no session row (`pim mcp` over stdio) compares it with the one it logged in at.
      await sql`ALTER TABLE user ADD COLUMN session_generation INTEGER NOT NULL DEFAULT 0`.execute(db);
    },
  },
  '0005_user_preferences': {
    async up(db) {
      // A user's choices in the window (the grid's columns and sort), kept with the user so that
      // they follow them to another machine in team mode. The value is JSON text.
      await sql`CREATE TABLE user_preference (
        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user_id, name)
      ) WITHOUT ROWID`.execute(db);
    },
  },
  '0006_jobs': {
    async up(db) {
      await sql`CREATE TABLE job (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        workspace_id INTEGER,
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        processed INTEGER NOT NULL DEFAULT 0,
        total INTEGER,
        created_by INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        runner TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL,
        cancel_requested INTEGER NOT NULL DEFAULT 0,
        input_json TEXT NOT NULL,
        report_json TEXT,
        error_json TEXT
      )`.execute(db);
      await sql`CREATE INDEX job_created ON job(created_at, id)`.execute(db);
    },
  },
};
