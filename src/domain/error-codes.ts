import { GROUP_DEPTH_MAX } from './groups/group.types.js';
import { BULK_DOCUMENTS_MAX, BULK_ROWS_MAX, SHEET_ROWS_MAX } from './products/product-limits.js';

/** A limit as the catalogue writes figures (1,000). */
const figure = (n: number) => n.toLocaleString('en-US');

/**
 * Every machine-readable error code pim answers, with the status REST answers it with (MCP tool
 * errors carry the same) and its meaning: one catalogue, listed in the OpenAPI description.
 * A code not in here cannot be thrown (DomainError's detailCode is typed by it).
 */
export const ERROR_CATALOGUE = {
  // Requests the HTTP server refuses before any route.
  MALFORMED_REQUEST: [400, 'The request is not valid HTTP/1.1 (method, request line or headers)'],
  INVALID_URL: [
    400,
    "The path or query string is not valid percent-encoded UTF-8 (percent-encode non-ASCII characters), or holds a '#'",
  ],
  PATH_SEGMENT_TOO_LONG: [400, 'A path segment is longer than 1,000 characters'],
  HOST_MISSING: [400, 'The request has no Host header'],
  HOST_NOT_ALLOWED: [403, 'The server is bound to loopback and the Host header names another machine'],
  ADDRESS_NOT_ALLOWED: [403, 'The client address is not in the setting rest.allow'],
  REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
  HEADERS_TOO_LARGE: [431, 'The request headers are larger than 16 KiB'],
  // Routes and bodies.
  ROUTE_NOT_FOUND: [404, 'No endpoint has this path'],
  METHOD_NOT_ALLOWED: [405, 'The path exists with other methods (see Allow)'],
  BODY_TOO_LARGE: [413, 'The body is larger than the limit (8 MiB; bulk routes 16 MiB; login 16 KiB)'],
  UNSUPPORTED_MEDIA_TYPE: [415, 'The body is not application/json in UTF-8, or it has a Content-Encoding'],
  INVALID_JSON: [400, 'The body is not valid JSON, or its bytes are not valid UTF-8'],
  INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  VALIDATION_FAILED: [400, 'A field is missing, unknown, of the wrong type or out of range'],
  INVALID_LANGUAGE: [400, 'Not an ISO 639-2 language code'],
  INVALID_CURSOR: [400, 'The paging cursor `after` does not belong to this list'],
  INVALID_PRECONDITION: [400, 'If-Match is not * or a comma-separated list of entity tags ("…" or W/"…")'],
  // Authentication and rights.
  UNAUTHORIZED: [401, 'Authentication required'],
  TOKEN_MISSING: [401, 'No bearer token was sent'],
  TOKEN_INVALID: [401, 'The token is malformed, unknown, logged out, or issued by another pim instance'],
  TOKEN_EXPIRED: [401, 'The token is older than 24 hours'],
  INVALID_CREDENTIALS: [401, 'Wrong user name or password'],
  LOGGED_IN_ELSEWHERE: [
    401,
    'The user holds a live token or desktop session issued by another pim instance (another machine)',
  ],
  TOO_MANY_FAILED_LOGINS: [429, 'Too many failed logins from this client (see Retry-After)'],
  LOGIN_BUSY: [503, 'Too many logins at once (see Retry-After)'],
  SERVICE_BUSY: [503, 'The service is busy (see Retry-After)'],
  DATABASE_BUSY: [503, 'Another process holds the database locked; nothing was changed (see Retry-After)'],
  DATABASE_READ_ONLY: [
    503,
    'The database refuses writes (a read-only file or medium, a standby); nothing was changed',
  ],
  DATABASE_UNAVAILABLE: [503, 'The shared database (team mode) cannot be reached now (see Retry-After)'],
  FORBIDDEN: [403, "The user's role lacks the right the operation needs"],
  CSRF_REFUSED: [403, 'A window request without the window header or from another site (CSRF protection)'],
  PORT_IN_USE: [400, 'The port is used by another program'],
  // Workspaces.
  NO_WORKSPACE_OPEN: [409, 'No workspace is open'],
  WORKSPACE_NOT_FOUND: [404, 'No workspace with this id or name'],
  WORKSPACE_ALREADY_LOADED: [400, 'The workspace is already open'],
  WORKSPACE_EXISTS: [409, 'A workspace with this name exists'],
  WORKSPACE_PATH_TAKEN: [400, 'The folder given for a new workspace is not empty'],
  WORKSPACE_FOLDER_MISSING: [400, "The workspace's folder is missing"],
  WORKSPACE_DATABASE_MISSING: [400, "The workspace's database file is missing"],
  WORKSPACE_DATABASE_FOREIGN: [400, "The file in the workspace's folder is not a pim workspace database"],
  WORKSPACE_DATABASE_UNREACHABLE: [400, "The workspace's database cannot be opened or read"],
  WORKSPACE_DATABASE_READ_ONLY: [400, "The workspace's database file or its folder is read-only"],
  // Catalogue.
  NOT_FOUND: [404, 'The resource does not exist'],
  CONFLICT: [409, 'The change conflicts with stored data'],
  PRODUCT_NOT_FOUND: [404, 'No product with this id'],
  SUPPLIER_PID_TAKEN: [409, 'Another product has this supplierPid'],
  BATCH_TOO_LARGE: [
    400,
    `A bulk request holds more than ${figure(BULK_DOCUMENTS_MAX)} documents or entries, or more than ${figure(BULK_ROWS_MAX)} texts and feature values`,
  ],
  SHEET_TOO_LARGE: [
    400,
    `A call sets more than ${figure(SHEET_ROWS_MAX)} of one product's texts and feature values`,
  ],
  PAGE_TOO_LARGE: [
    400,
    'A page of the product list is too large for one answer (very long names): ask for fewer with limit',
  ],
  PRECONDITION_FAILED: [
    412,
    'The product changed since the version named in If-Match (its ETag): read it again and reapply the change',
  ],
  DELETIONS_EXPIRED: [400, 'since is older than the 30 days deleted products are kept: sync in full'],
  VARIANT_OF_VARIANT: [400, 'Variants cannot have variants'],
  TEXT_NOT_FOUND: [404, 'The product has no text of this kind in this language'],
  FEATURE_NOT_FOUND: [404, 'The product has no feature with this FT_IDREF'],
  FEATURE_VALUE_NOT_FOUND: [404, 'The feature has no value in this language'],
  FTIDREF_MISMATCH: [400, 'The body names another ftidref than the path'],
  GROUP_NOT_FOUND: [404, 'No group with this id'],
  GROUP_MOVE_CYCLE: [400, 'A group cannot move under itself or its descendants'],
  GROUP_TREE_TOO_DEEP: [400, `The group tree would be deeper than ${GROUP_DEPTH_MAX} levels`],
  PRODUCT_NOT_IN_GROUP: [404, 'The product is not in this group'],
  // Users (CLI, window).
  USER_EXISTS: [409, 'A user with this name exists'],
  USER_NOT_FOUND: [404, 'No user with this id or name'],
  JOB_NOT_FOUND: [404, 'No job with this id that this user may see'],
  JOB_FINISHED: [409, 'The job has finished: it can no longer be cancelled'],
  JOB_NOT_MASS_EDIT: [409, 'Only a mass edit of the open workspace can be undone'],
  JOB_RUNNING: [409, 'The job is still running: cancel it or wait for its end first'],
  NOTHING_TO_UNDO: [409, 'The mass edit changed nothing: there is nothing to undo'],
  MASS_EDIT_UNDONE: [409, 'The mass edit was undone already'],
  UNDO_EXPIRED: [
    409,
    'The undo data of this mass edit is no longer kept (only the newest mass edits keep it)',
  ],
  SPREADSHEET_INVALID: [
    400,
    'A spreadsheet (CSV, XLSX) cannot be imported: the error names the row and column (docs/spreadsheets.md)',
  ],
  LAST_ADMIN: [409, 'The last enabled ADMIN cannot be demoted or disabled'],
  USER_DISABLED: [401, 'The user is disabled: no login, and their sessions have ended'],
  INTERNAL: [500, 'Unexpected error; the detail is in the server log'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCodeName = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CATALOGUE) as ErrorCodeName[];

export function errorStatus(code: ErrorCodeName): number {
  return ERROR_CATALOGUE[code][0];
}
