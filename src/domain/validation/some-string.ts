/**
 * Whether any string in a parsed JSON value passes `test` (object keys too when `keys`). Walks
 * without building paths or arrays: request bodies of the bulk routes hold about 100,000 strings,
 * and the checks below run on every body, where finding nothing is the rule.
 */
export function someString(value: unknown, test: (text: string) => boolean, keys = false): boolean {
  if (typeof value === 'string') return test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (someString(value[i], test, keys)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if ((keys && test(key)) || someString(record[key], test, keys)) return true;
  }
  return false;
}
