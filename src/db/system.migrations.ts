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
};
