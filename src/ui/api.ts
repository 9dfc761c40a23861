/** The window's calls to its own server (/ui/api): the envelope unwrapped, errors as WindowError. */
import type { RestState, SessionUserDto } from '../window/window-api.types.js';
import { reportConnection } from './connection.js';

export type { MonitorEntry, RestState, WindowStatus } from '../window/window-api.types.js';

export class WindowError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  code?: string;
  field?: string;
}

/** The code of a request that never got an answer (pim stopped, the network gone): status 0. */
export const UNREACHABLE = 'UNREACHABLE';

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/ui/api${path}`, {
      method,
      credentials: 'same-origin',
      // The custom header is the window's CSRF guard: a page on another site cannot send it.
      headers: { 'x-pim-window': '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    reportConnection(false);
    // The browser's own text ("Failed to fetch") means nothing to a user: a code the views translate.
    throw new WindowError(error instanceof Error ? error.message : String(error), UNREACHABLE, 0);
  }
  reportConnection(true);
  const envelope = (await response.json().catch(() => ({}))) as Envelope<T>;
  if (!response.ok || !envelope.success) {
    throw new WindowError(
      envelope.error ?? `${response.status} ${response.statusText}`,
      envelope.code ?? 'INTERNAL',
      response.status,
      envelope.field,
    );
  }
  return envelope.data as T;
}

export type SessionUser = SessionUserDto;

/** Without a session only `user: null`; the machine id and version come with a session. */
export interface SessionInfo {
  user: SessionUser | null;
  machineId?: string;
  version?: string;
}

export interface RestSettings {
  enabled: boolean;
  port: number;
  host: string;
  allow: string;
  state: RestState;
  warning: string | null;
  editable: boolean;
}

export interface UserRow {
  id: number;
  username: string;
  role: string;
  disabled: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface WorkspaceRow {
  id: number;
  name: string;
  rootpath: string;
  active: boolean;
}

/** The rights' names, as the spec writes them. */
export const RIGHTS = {
  settings: 'Einstellungen',
  users: 'Benutzerverwaltung',
  workspaces: 'Arbeitsbereiche',
};
