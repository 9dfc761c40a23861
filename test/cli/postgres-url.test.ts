import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/cli.js';
import { expectOneLineError, expectSuccess } from '../helpers/expect-cli.js';
import { PG_SERVER_URL } from '../helpers/backend.js';

/** sslmode in a database URL: pg's multi-line SECURITY WARNING must not reach pim's output. */
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pim-pg-url-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

// The test server speaks no TLS: a URL that asks for it fails at connect, after pg parsed it.
const withSslMode = (mode: string) =>
  `${PG_SERVER_URL}${PG_SERVER_URL.includes('?') ? '&' : '?'}sslmode=${mode}`;

describe('sslmode=prefer|require|verify-ca', () => {
  it('pim db move and pim setup answer one line, without the warning', async () => {
    expectSuccess(
      await runCliAsync(dataDir, ['user', 'add', 'boss', '--role', 'ADMIN', '--password-stdin'], {
        stdin: 'pw\n',
      }),
    );
    for (const mode of ['require', 'prefer', 'verify-ca']) {
      for (const args of [
        ['db', 'move', '--to', withSslMode(mode)],
        ['setup', '--database', withSslMode(mode), '--force'],
      ]) {
        const result = await runCliAsync(dataDir, args);
        expect(result.stderr).not.toMatch(/SECURITY WARNING|Warning/);
        expectOneLineError(result);
      }
    }
  });
});
