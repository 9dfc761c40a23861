import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.js';
import {
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  isSettingKey,
} from '../../src/domain/settings/settings.service.js';

const port = SETTING_DEFINITIONS['rest.port'];
const enabled = SETTING_DEFINITIONS['rest.enabled'];
const host = SETTING_DEFINITIONS['rest.host'];

describe('setting values', () => {
  it('has the spec defaults', () => {
    expect(SETTING_KEYS).toEqual([
      'rest.enabled',
      'rest.port',
      'rest.host',
      'rest.allow',
      'ui.host',
      'ui.port',
    ]);
    expect(SETTING_DEFINITIONS['rest.allow'].default).toBe('');
    expect([SETTING_DEFINITIONS['ui.host'].default, SETTING_DEFINITIONS['ui.port'].default]).toEqual([
      '127.0.0.1',
      8764,
    ]);
    expect([enabled.default, port.default, host.default]).toEqual([false, 8765, '127.0.0.1']);
  });

  it('knows its keys and nothing else', () => {
    for (const key of SETTING_KEYS) expect(isSettingKey(key)).toBe(true);
    for (const key of ['rest', 'rest.Port', 'toString', '__proto__', 'constructor', '']) {
      expect(isSettingKey(key)).toBe(false);
    }
  });

  it('accepts every port from 1024 to 65535, as a number or as its decimal text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1024, max: 65535 }), (p) => {
        expect(port.parse(p)).toBe(p);
        expect(port.parse(String(p))).toBe(p);
      }),
    );
    expect(port.parse('1024')).toBe(1024);
    expect(port.parse('65535')).toBe(65535);
  });

  it('refuses every port outside 1024..65535', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 1023 }), fc.integer({ min: 65536 })), (p) => {
        expect(() => port.parse(p)).toThrow(ValidationError);
        expect(() => port.parse(String(p))).toThrow(/1024 to 65535/);
      }),
    );
  });

  it.each([
    'abc',
    '',
    ' 8765',
    '8765 ',
    '+8765',
    '8765.0',
    '0x2000',
    '1e4',
    '8 765',
    null,
    undefined,
    8765.5,
    true,
    NaN,
  ])('refuses the port %j', (value) => {
    expect(() => port.parse(value)).toThrow(ValidationError);
  });

  it('reads rest.enabled from true/false only', () => {
    expect(enabled.parse('true')).toBe(true);
    expect(enabled.parse(true)).toBe(true);
    expect(enabled.parse('false')).toBe(false);
    expect(enabled.parse(false)).toBe(false);
    for (const value of ['yes', '1', 1, 0, '', 'on', null])
      expect(() => enabled.parse(value)).toThrow(ValidationError);
  });

  it.each(['127.0.0.1', '0.0.0.0', '::1', '::', 'localhost', 'pim.example.com', '10.1.2.3', 'host-1'])(
    'accepts the host %s',
    (value) => {
      expect(host.parse(value)).toBe(value);
    },
  );

  it.each([
    '',
    'bad host',
    'http://localhost',
    'localhost:8765',
    '-leading.dash',
    'a..b',
    'x'.repeat(254),
    // Would-be IPv4 addresses: a resolver reads 1.2.3 as 1.2.0.3; 999.1.1.1 is none.
    '999.1.1.1',
    '256.1.1.1',
    '1.2.3',
    'host.123',
  ])('refuses the host %j', (value) => {
    expect(() => host.parse(value)).toThrow(ValidationError);
  });
});
