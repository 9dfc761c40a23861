import { BlockList, isIP } from 'node:net';
import { ValidationError } from '../errors.js';

/**
 * `rest.allow`: the addresses and CIDR ranges allowed to call the REST server, comma-separated
 * ("127.0.0.1, 10.0.0.0/8, fd00::/8"). Empty: everyone who can reach the bound address.
 */
export function parseAllowList(value: unknown): string {
  const entries = String(value)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ValidationError(
        `rest.allow: '${entry}' is not an IP address or CIDR range (for example 10.0.0.0/8, ::1)`,
      );
    }
  }
  return entries.join(', ');
}

/** The allow list as a matcher, or undefined when everyone may call. */
export function allowMatcher(list: string): ((address: string) => boolean) | undefined {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return undefined;
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) blocks.addAddress(address, type);
    else blocks.addSubnet(address, Number(prefix), type);
  }
  return (remote: string) => {
    // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote)?.[1];
    const address = mapped ?? remote;
    return blocks.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/** True for addresses and names that reach this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6)
    return name === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(name) || /^::ffff:127\./.test(name);
  return false;
}

/** The warning `pim start` and `pim settings set` print when the server is reachable from elsewhere by anyone. */
export function exposureWarning(settings: { 'rest.host': string; 'rest.allow': string }): string | undefined {
  if (isLoopbackHost(settings['rest.host']) || settings['rest.allow'].trim() !== '') return undefined;
  return (
    `warning: the REST server binds to ${settings['rest.host']}, which other machines can reach, and rest.allow ` +
    'is empty: anyone who reaches it may try to log in. Restrict it with pim settings set rest.allow "10.0.0.0/8, ..."'
  );
}

/**
 * The warning for a window served beyond this machine (ui.host not loopback): it has no allow
 * list, and its Host check, which guards against DNS rebinding, only applies on loopback.
 */
export function windowExposureWarning(settings: { 'ui.host': string }): string | undefined {
  if (isLoopbackHost(settings['ui.host'])) return undefined;
  return (
    `warning: the application window binds to ${settings['ui.host']}, which other machines can reach: anyone ` +
    'who reaches it may try to log in, and its Host check applies only on loopback. Keep it local with ' +
    'pim settings set ui.host 127.0.0.1'
  );
}
