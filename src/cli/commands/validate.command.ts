import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkBmecatFile } from '../../interchange/bmecat/bmecat-file-checks.js';
import { checkAgainstSchema } from '../../interchange/bmecat/bmecat-schema-check.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';

/**
 * `pim validate FILE`: a BMEcat file against the BMEcat 2005.1 schema (xmllint --stream, when
 * installed, else the bundled libxml2 for files up to 64 MB), then pim's own checks
 * (bmecat-file-checks.ts). Each problem as FILE:LINE[:COLUMN]: message on standard output, then a
 * summary line that says what checked the file. Exit 0 only when both found nothing; 1 otherwise.
 * Touches no data folder.
 */
export async function validateCommand({ positionals, out }: CommandInput): Promise<number> {
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('pim validate needs a BMEcat file');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const path = resolve(file);
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new UsageError(`cannot read ${file}: no such file`);
  const schema = await checkAgainstSchema(path);
  for (const p of schema.problems)
    out(`${file}:${p.line === 0 ? '' : `${p.line}:`}${p.column ? `${p.column}:` : ''} ${p.message}`);
  // The schema reports values over BMEcat's lengths itself; without it, pim's checks do.
  const own = await checkBmecatFile(createReadStream(path) as AsyncIterable<Buffer>, {
    lengths: schema.validator === null,
  });
  for (const p of own) out(`${file}:${p.line}:${p.column}: ${p.message}`);
  const count = schema.problems.length + own.length;
  const checked = schema.validator ?? `no schema check (${schema.note ?? 'skipped'})`;
  out(
    `${file}: ${count === 0 ? 'no problems' : `${count} problem${count === 1 ? '' : 's'}`} ` +
      `(${schema.problems.length} from ${checked}, ${own.length} from pim's checks)`,
  );
  return count === 0 ? 0 : 1;
}
