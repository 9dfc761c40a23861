import { describe, expect, it } from 'vitest';
import { formatForTerminal } from '../../src/app/log-terminal-format.js';

const at = new Date(2026, 10, 28, 9, 5, 7, 250).getTime();
const line = (record: object) => `${JSON.stringify({ pid: 1, hostname: 'h', time: at, ...record })}\n`;

describe('the log on a terminal', () => {
  it('shows a request as time, method, path, status and milliseconds', () => {
    const json = line({
      level: 30,
      reqId: 'req-1',
      method: 'GET',
      path: '/api/product/7',
      status: 200,
      ms: 1.25,
      msg: 'request',
    });
    expect(formatForTerminal(json)).toBe('09:05:07 GET /api/product/7 200 1.25 ms\n');
  });

  it('shows other lines with their level, a warning with its error message on the same line', () => {
    expect(formatForTerminal(line({ level: 30, msg: 'Server listening at http://127.0.0.1:8080' }))).toBe(
      '09:05:07 INFO Server listening at http://127.0.0.1:8080\n',
    );
    const warning = line({
      level: 40,
      msg: 'request refused by the framework',
      err: { message: 'bad', stack: 'Error: bad\n    at x' },
    });
    expect(formatForTerminal(warning)).toBe('09:05:07 WARN request refused by the framework: bad\n');
  });

  it('shows an error with its stack, which is what its reader needs', () => {
    const error = line({
      level: 50,
      msg: 'unexpected error',
      err: { message: 'boom', stack: 'Error: boom\n    at f (a.ts:1)' },
    });
    expect(formatForTerminal(error)).toBe(
      '09:05:07 ERROR unexpected error\nError: boom\n    at f (a.ts:1)\n',
    );
  });

  it('passes a line that is not JSON unchanged: nothing is lost to formatting', () => {
    expect(formatForTerminal('not json at all\n')).toBe('not json at all\n');
    expect(formatForTerminal('42\n')).toBe('42\n');
    expect(formatForTerminal('null\n')).toBe('null\n');
  });
});
