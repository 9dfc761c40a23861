import { describe, expect, it } from 'vitest';
import {
  allowMatcher,
  exposureWarning,
  isLoopbackHost,
  parseAllowList,
} from '../../src/domain/settings/address-allow.js';
import { hostName } from '../../src/http/edge-guards.js';

describe('rest.allow', () => {
  it('accepts addresses and CIDR ranges of both families and normalises the list', () => {
    expect(parseAllowList(' 127.0.0.1 ,10.0.0.0/8,, fd00::/8 ,::1 ')).toBe(
      '127.0.0.1, 10.0.0.0/8, fd00::/8, ::1',
    );
    expect(parseAllowList('')).toBe('');
  });

  it.each(['localhost', '10.0.0.0/33', '10.0.0.1/8/1', '300.1.1.1', 'fd00::/129', '10.0.0.0/x', '*'])(
    'refuses %s with a message naming it',
    (entry) => {
      expect(() => parseAllowList(`127.0.0.1, ${entry}`)).toThrow(`'${entry}'`);
    },
  );

  it('matches addresses, ranges and IPv4-mapped IPv6 clients', () => {
    const allows = allowMatcher('10.0.0.0/8, 192.168.1.5, fd00::/8')!;
    expect(allows('10.1.2.3')).toBe(true);
    expect(allows('::ffff:10.1.2.3')).toBe(true);
    expect(allows('192.168.1.5')).toBe(true);
    expect(allows('192.168.1.6')).toBe(false);
    expect(allows('fd12::1')).toBe(true);
    expect(allows('127.0.0.1')).toBe(false);
    expect(allowMatcher('')).toBeUndefined();
  });
});

describe('loopback names', () => {
  it.each([
    ['localhost', true],
    ['app.localhost', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['[::1]', true],
    ['::1', true],
    ['LOCALHOST', true],
    ['evil.example', false],
    ['localhost.evil.example', false],
    ['10.0.0.1', false],
    ['0.0.0.0', false],
    ['[::2]', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it('reads the host of a Host header with or without port', () => {
    expect(hostName('localhost:8765')).toBe('localhost');
    expect(hostName('[::1]:8765')).toBe('[::1]');
    expect(hostName('[::1]')).toBe('[::1]');
    expect(hostName('example.com')).toBe('example.com');
  });

  it('warns when a non-loopback binding has no allow list', () => {
    expect(exposureWarning({ 'rest.host': '0.0.0.0', 'rest.allow': '' })).toMatch(/rest\.allow/);
    expect(exposureWarning({ 'rest.host': '0.0.0.0', 'rest.allow': '10.0.0.0/8' })).toBeUndefined();
    expect(exposureWarning({ 'rest.host': '127.0.0.1', 'rest.allow': '' })).toBeUndefined();
  });
});
