import { refuseWhileRunning } from '../../app/running-processes.js';
import { withoutPassword } from '../../db/database-config.js';
import { moveCatalogue, type MoveReport } from '../../app/db-move/move-catalogue.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';

function summary(report: MoveReport, out: (line: string) => void): void {
  const tables = [...report.system, ...report.workspaces.flatMap((ws) => ws.tables)];
  const rows = tables.reduce((sum, t) => sum + t.rows, 0);
  const users = report.system.find((t) => t.name === 'user')?.rows ?? 0;
  out(
    `moved into ${report.target} in ${report.seconds.toFixed(1)} s: ${users} users, ` +
      `${report.workspaces.length} workspaces, ${tables.length} tables, ${rows} rows; ` +
      'every table has the same row count and checksum on both sides',
  );
  const line = (list: Array<{ name: string; rows: number }>) =>
    list.map((t) => `${t.name} ${t.rows}`).join(', ');
  out(`  system: ${line(report.system)}`);
  for (const ws of report.workspaces) out(`  workspace ${ws.name} (schema ${ws.schema}): ${line(ws.tables)}`);
  out('this data folder now uses that database; its SQLite files stay where they are, as the backup');
  out('users log in again (sessions were not copied)');
}

/**
 * `pim db move --to URL`: a single-machine installation moves into PostgreSQL (team mode).
 * Refused while `pim start` or `pim mcp` runs on the data folder: what they wrote after the copy
 * would stay behind in SQLite.
 */
export async function dbCommand({ dataDir, positionals, values, out }: CommandInput): Promise<void> {
  const [, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const to = values.to;
  if (typeof to !== 'string' || to.trim() === '') {
    throw new UsageError('pim db move needs --to postgres://USER@HOST:PORT/DATABASE');
  }
  refuseWhileRunning(dataDir, 'nothing was moved');
  let report: MoveReport;
  try {
    report = await moveCatalogue(dataDir, to);
  } catch (error) {
    // Driver messages may quote the URL; the password never reaches the terminal.
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(withoutPassword(message, to.trim()), { cause: error });
  }
  summary(report, out);
}
