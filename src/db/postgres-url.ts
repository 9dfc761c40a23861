/**
 * The connection string pim hands to pg. pg-connection-string 2.x reads `sslmode=prefer`,
 * `require` and `verify-ca` as `verify-full` (certificate and host name checked) and, the first
 * time it parses one, prints a multi-line "SECURITY WARNING" through process.emitWarning: its
 * next major version will give them libpq's weaker meaning. That warning broke pim's one-line
 * output and tells the user nothing they can act on in pim. pim asks for what pg does today, in
 * the words the warning itself advises (`verify-full`), so nothing changes on the wire; with
 * `uselibpqcompat=true` the URL asks for libpq's meaning and is passed on as written.
 */
export function pgConnectionString(url: string): string {
  if (/[?&]uselibpqcompat=true(?=&|#|$)/.test(url)) return url;
  return url.replace(/([?&]sslmode=)(?:prefer|require|verify-ca)(?=&|#|$)/g, '$1verify-full');
}
