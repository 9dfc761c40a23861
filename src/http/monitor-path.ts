/**
 * Words that, as a part of a query parameter's name, mark its value as a possible secret: the
 * value never reaches the monitor or the log. Names are split into parts at anything but letters
 * and digits and at camelCase humps (`access_token`, `apiKey`, `x-api-key`, `token[]`, `sessionId`),
 * so a part must be the word itself: `keyword` or `passage` stay readable.
 */
const SECRET_WORDS = new Set([
  'token',
  'jwt',
  'bearer',
  'auth',
  'authorization',
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'pw',
  'pin',
  'otp',
  'secret',
  'key',
  'apikey',
  'credential',
  'credentials',
  'session',
  'sessionid',
  'sid',
  'cookie',
  'signature',
  'sig',
]);

/** True when a (decoded) parameter name has a part that names a secret. */
export function isSecretParameter(name: string): boolean {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return parts.some((part) => SECRET_WORDS.has(part));
}

/**
 * The path of a request as the monitor shows it: with its query string, values of parameters
 * that may carry secrets masked. Cheap for the common case (no query string).
 */
export function monitorPath(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const path = url.slice(0, mark);
  const query = url.slice(mark + 1);
  if (query === '') return path;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // keep it as written
    }
    return eq >= 0 && isSecretParameter(decoded) ? `${name}=***` : part;
  });
  return `${path}?${parts.join('&')}`;
}
