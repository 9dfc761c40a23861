/** The window's calls to its own server (/ui/api): the envelope unwrapped, errors as WindowError. */
import type { RestSettingsDto, SessionUserDto } from '../window/window-api.types.js';
import { reportConnection } from './connection.js';
import { takeEarly, WINDOW_HEADERS } from './early-requests.js';
import { UNREACHABLE, WindowError } from './window-error.js';

export { UNREACHABLE, WindowError, type ErrorDetails } from './window-error.js';

export type {
  MonitorEntry,
  MonitorEpoch,
  NumberedMonitorEntry,
  RestState,
  WindowStatus,
} from '../window/window-api.types.js';

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  code?: string;
  field?: string;
  params?: Record<string, string | number>;
}

/** Whoever must hear that the server refused the session (401): the window returns to the login screen. */
let sessionRefused: (() => void) | undefined;

/**
 * One place for every 401: a session that ended while nobody was listening (pim stopped, the
 * user logged out with the CLI) sends the window to the login screen instead of leaving each
 * view to show "the desktop session has ended". Returns the unsubscribe.
 */
export function onSessionRefused(handler: () => void): () => void {
  sessionRefused = handler;
  return () => {
    if (sessionRefused === handler) sessionRefused = undefined;
  };
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  // Asked already, before the view rendered (early-requests.ts): a success is the answer.
  const early = method === 'GET' ? takeEarly(path) : undefined;
  if (early) {
    const answer = await early;
    if (answer.ok) {
      reportConnection(true);
      return answer.data as T;
    }
  }
  let response: Response;
  try {
    response = await fetch(`/ui/api${path}`, {
      method,
      credentials: 'same-origin',
      // The custom header is the window's CSRF guard: a page on another site cannot send it.
      headers: { ...WINDOW_HEADERS, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    reportConnection(false);
    // The browser's own text ("Failed to fetch") means nothing to a user: a code the views translate.
    throw new WindowError(error instanceof Error ? error.message : String(error), UNREACHABLE, 0);
  }
  reportConnection(true);
  // A 401 of the login itself is wrong credentials, not an ended session.
  if (response.status === 401 && path !== '/session/login') sessionRefused?.();
  const envelope = (await response.json().catch(() => ({}))) as Envelope<T>;
  return unwrap(response.status, response.statusText, envelope, response.headers.get('retry-after'));
}

/** The envelope's data, or its refusal as a WindowError. */
function unwrap<T>(
  status: number,
  statusText: string,
  envelope: Envelope<T>,
  retryAfterHeader: string | null,
): T {
  if (status >= 200 && status < 300 && envelope.success) return envelope.data as T;
  const retryAfter = Number(retryAfterHeader ?? NaN);
  throw new WindowError(envelope.error ?? `${status} ${statusText}`, envelope.code ?? 'INTERNAL', status, {
    field: envelope.field,
    params: envelope.params,
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
  });
}

/** Thrown by `upload` when its signal aborted it. */
export class UploadAborted extends Error {
  constructor() {
    super('The upload was stopped');
  }
}

/**
 * Sends a file as the body (fetch cannot tell how much of a body was sent; XMLHttpRequest can):
 * `onProgress` hears the share sent, 0 to 1. Answers and errors as `api` does.
 */
export function upload<T>(
  path: string,
  file: Blob,
  contentType: string,
  onProgress: (sent: number) => void,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/ui/api${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('x-pim-window', '1');
    xhr.setRequestHeader('content-type', contentType);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      reportConnection(true);
      if (xhr.status === 401) sessionRefused?.();
      let envelope: Envelope<T> = { success: false };
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        // Not the envelope (a proxy's page): the status says what happened.
      }
      try {
        resolve(unwrap(xhr.status, xhr.statusText, envelope, xhr.getResponseHeader('retry-after')));
      } catch (error) {
        reject(error as Error);
      }
    });
    xhr.addEventListener('error', () => {
      reportConnection(false);
      reject(new WindowError('The upload failed', UNREACHABLE, 0));
    });
    xhr.addEventListener('abort', () => reject(new UploadAborted()));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

export type SessionUser = SessionUserDto;

/** Without a session only `user: null`; the machine id and version come with a session. */
export interface SessionInfo {
  user: SessionUser | null;
  machineId?: string;
  version?: string;
}

export type RestSettings = RestSettingsDto;

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
  /** Changing products and groups (EDITOR and ADMIN). */
  edit: 'Bearbeiten',
};
