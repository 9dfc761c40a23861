import { describe, expect, it } from 'vitest';
import { isLoopbackHost as serverLoopback } from '../../src/domain/settings/address-allow.js';
import { SETTING_DEFINITIONS } from '../../src/domain/settings/settings.service.js';
import { isLoopbackHost, validHost } from '../../src/ui/host-address.js';

const serverValid = (host: string) => {
  try {
    SETTING_DEFINITIONS['rest.host'].parse(host);
    return true;
  } catch {
    return false;
  }
};

// The window's judgement of an address must agree with the server's (node:net) on these.
const SAMPLES = [
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.0.0.5',
  '256.1.1.1',
  '01.2.3.4',
  '1.2.3',
  '999.1.1.1',
  '1.2.3.4.5',
  'host.123',
  '123',
  '0x7f.1',
  'example.0x1f',
  'server1',
  'node-2.example.org',
  'localhost',
  'LOCALHOST',
  'pim.localhost',
  'pim.example.org',
  '-bad.example',
  'not a host!',
  '',
  'a'.repeat(254),
  '::',
  '::1',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  'fe80::1',
  'fe80::1%eth0',
  '[::1]',
  '0.0.0.0:8765',
  'gggg::1',
  '1::2::3',
];

describe("the window's address rules (src/ui/host-address.ts)", () => {
  it.each(SAMPLES)('judge %j as the server does', (host) => {
    expect(validHost(host)).toBe(serverValid(host));
    if (serverValid(host)) expect(isLoopbackHost(host)).toBe(serverLoopback(host));
  });
});
