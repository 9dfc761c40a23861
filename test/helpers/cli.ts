import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const PIM_BIN = fileURLToPath(new URL('../../bin/pim.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real executable `bin/pim.js` (compiled by `npm run build`) once. */
export function runCli(
  dataDir: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): CliResult {
  const result = spawnSync(process.execPath, [PIM_BIN, '--data-dir', dataDir, ...args], {
    input: options.stdin ?? '',
    encoding: 'utf8',
    env: { ...process.env, PIM_LOG_LEVEL: 'warn', ...options.env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface StartedProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
}

/** Starts `pim start --port 0` as a child process and waits for its "REST API listening" line. */
export async function startCli(
  dataDir: string,
  env: Record<string, string> = {},
  extraArgs: string[] = [],
): Promise<StartedProcess> {
  const child = spawn(
    process.execPath,
    [PIM_BIN, '--data-dir', dataDir, 'start', '--port', '0', ...extraArgs],
    {
      env: { ...process.env, PIM_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d.toString()));
  child.stderr!.on('data', (d) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pim start did not come up:\n${output}`)), 20_000);
    const check = () => {
      const match = /REST API listening on (http:\/\/\S+)\/api/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`pim start exited:\n${output}`));
    });
  });
  return { child, baseUrl, output: () => output, exited };
}
