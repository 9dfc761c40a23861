/**
 * The REST server's address as the settings dialog judges it before saving: the same rules as
 * the server's (`parseHost` in domain/settings/settings.service.ts, `isLoopbackHost` in
 * domain/settings/address-allow.ts), which use node:net and cannot come to the browser. The server
 * stays the judge of what is saved; these only decide whether the exposure warning applies.
 */
const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

function isIPv4(host: string): boolean {
  return IPV4.test(host);
}

/** The browser's URL parser knows IPv6 literals; a zone (fe80::1%eth0) is not part of its syntax. */
function isIPv6(host: string): boolean {
  if (!host.includes(':') || /[[\]/?#@\s]/.test(host)) return false;
  try {
    new URL(`http://[${host.replace(/%[\w.~-]+$/, '')}]/`);
    return true;
  } catch {
    return false;
  }
}

/** A last label that is a number makes a would-be IPv4 address, not a host name. */
const ENDS_IN_NUMBER = /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/i;

/** Whether the server would take the address: an IP address or a host name. */
export function validHost(host: string): boolean {
  return isIPv4(host) || isIPv6(host) || (HOSTNAME.test(host) && !ENDS_IN_NUMBER.test(host));
}

/** True for addresses and names that reach this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIPv4(name)) return name.startsWith('127.');
  if (isIPv6(name)) return name === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(name) || /^::ffff:127\./.test(name);
  return false;
}
