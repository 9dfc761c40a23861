/** What each HTTP status means in pim's answers (OpenAPI); the codes behind them are in domain/error-codes.ts. */
export const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: malformed JSON, wrong type, missing or unknown field, bad language code, bad id, value too long',
  401: 'No, invalid or expired token (or, on login, wrong credentials or user logged in on another machine)',
  403: "The user's role lacks the right this operation needs",
  404: 'Unknown resource',
  405: 'Known path, unsupported method (see the Allow header)',
  409: 'No workspace is open, or a unique value (supplierPid) is already taken',
  412: 'Precondition failed: the product changed since the version named in If-Match (nothing was changed)',
  413: 'Body larger than the limit (8 MiB)',
  415: 'Body with a content type other than application/json',
  429: 'Too many failed logins (see the Retry-After header)',
  500: 'Unexpected error; the detail is in the server log',
  503: 'Too many logins at once (see the Retry-After header)',
};
