import type { Generated } from 'kysely';

/** Tables of the system database in the data folder. */
export interface SystemDatabase {
  user: UserTable;
  session: SessionTable;
  setting: SettingTable;
  workspace: WorkspaceTable;
  app_state: AppStateTable;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: string;
  created_at: string;
}

export interface SessionTable {
  token_hash: string;
  user_id: number;
  issued_at: string;
  expires_at: string;
  remote_address: string;
}

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
}

/** Application state that is not a user setting (which workspace is open). */
export interface AppStateTable {
  key: string;
  value: string;
}
