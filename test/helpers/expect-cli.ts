import { expect } from 'vitest';
import type { CliResult } from './cli.js';

/** Bad input: exactly one line on stderr ("pim: ..."), nothing on stdout, a non-zero exit code. */
export function expectOneLineError(result: CliResult, pattern?: RegExp): void {
  expect(result.code, `stderr: ${result.stderr}`).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  const lines = result.stderr.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^pim: \S/);
  if (pattern) expect(lines[0]).toMatch(pattern);
}

/** Success: exit code 0, nothing on stderr. */
export function expectSuccess(result: CliResult): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}
