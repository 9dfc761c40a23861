/** Query parameters whose values never reach the monitor or the log. */
const SECRET_PARAMETERS = /^(?:token|access_token|password|secret|api_?key|key)$/i;

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
      decoded = decodeURIComponent(name);
    } catch {
      // keep it as written
    }
    return eq >= 0 && SECRET_PARAMETERS.test(decoded) ? `${name}=***` : part;
  });
  return `${path}?${parts.join('&')}`;
}
