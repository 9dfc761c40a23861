import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Server {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** The last lines the process wrote (stdout, and stderr unless it goes to a log file). */
  output(): string;
  /** Where the log (stderr) stands now: `loggedSince` reads what was logged after it. */
  logMark(): number;
  /** What was logged since `mark` at level warn and above (the access log left out), at most 3,000 characters. */
  loggedSince(mark: number): string;
  /** Non-null when the process has ended. */
  exitCode(): number | string | null;
  stop(): Promise<void>;
}

const OUTPUT_KEEP = 20_000;

/** Spawns a server process and waits until it prints a line matching `ready` (group 1: the base URL). */
export async function startServer(
  name: string,
  args: string[],
  ready: RegExp,
  env: Record<string, string | undefined> = {},
  /** Standard error into this file (as a service's log), not through this process. */
  logFile?: string,
  /** The checkout to run it from (another commit's worktree, built); this one by default. */
  cwd = REPO_ROOT,
): Promise<Server> {
  const log = logFile === undefined ? undefined : openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', log ?? 'pipe'],
  });
  if (log !== undefined) closeSync(log);
  let output = '';
  let ended: number | string | null = null;
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEEP);
  };
  child.stdout!.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      ended = code ?? signal ?? 'unknown';
      resolve();
    }),
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within 30 s:\n${output}`)),
      30_000,
    );
    const check = () => {
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${ended}) before it was ready:\n${output}`));
    });
  });
  return {
    name,
    child,
    pid: child.pid!,
    baseUrl,
    output: () => output,
    logMark: () => (logFile === undefined ? output.length : statSync(logFile).size),
    loggedSince: (mark) =>
      worseThanInfo(logFile === undefined ? output.slice(mark) : readFrom(logFile, mark)),
    exitCode: () => ended,
    async stop() {
      if (ended !== null) return;
      child.kill('SIGTERM');
      const timeout = new Promise<'timeout'>((resolve) =>
        setTimeout(() => resolve('timeout'), 10_000).unref(),
      );
      if ((await Promise.race([exited, timeout])) === 'timeout') {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** The file from `offset` on, at most its last 64 MiB (a log under load grows by megabytes a second). */
function readFrom(file: string, offset: number): string {
  const size = statSync(file).size;
  const start = Math.max(offset, size - 64 * 1024 * 1024);
  const buffer = Buffer.alloc(size - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, start);
  } finally {
    closeSync(fd);
  }
  return buffer.toString();
}

/** The lines above info (pino's level 30): warnings and errors, and whatever is not JSON. */
function worseThanInfo(log: string): string {
  return log
    .split('\n')
    .filter((line) => line && !/^\{"level":(10|20|30),/.test(line))
    .join('\n')
    .slice(-3000);
}

export function startBaseline(): Promise<Server> {
  return startServer(
    'baseline',
    ['--import', 'tsx', 'bench/baseline-server.ts'],
    /baseline listening on (http:\/\/\S+)/,
  );
}

/**
 * `pim start --port 0` on the given data folder as a user runs it as a service: the default log
 * level (the access log on), standard error appended to `logFile` as a service manager would. With
 * `logOff`, PIM_LOG_LEVEL=warn: no access log (the "access log vs off" row). `nodeArgs` e.g. --cpu-prof.
 */
export function startPim(
  dataDir: string,
  logFile: string,
  options: { nodeArgs?: string[]; logOff?: boolean } = {},
): Promise<Server> {
  return startServer(
    'pim',
    [...(options.nodeArgs ?? []), 'bin/pim.js', '--data-dir', dataDir, 'start', '--port', '0'],
    /REST API listening on (http:\/\/\S+)\/api/,
    { PIM_LOG_LEVEL: options.logOff ? 'warn' : undefined },
    logFile,
  );
}

/**
 * `pim start` as a user runs it, for the window rows: the default log level, the log (standard
 * error) appended to `logFile` as a service's would be, the window on a free port.
 */
export async function startPimForWindow(
  dataDir: string,
  logFile: string,
  root?: string,
): Promise<Server & { windowUrl: string }> {
  const server = await startServer(
    'pim',
    ['bin/pim.js', '--data-dir', dataDir, 'start', '--port', '0', '--ui-port', '0'],
    /REST API listening on (http:\/\/\S+)\/api/,
    { PIM_LOG_LEVEL: undefined },
    logFile,
    root,
  );
  const window = /(?:Application window on|Window:)\s+(http:\/\/\S+)/.exec(server.output())?.[1];
  if (!window) {
    await server.stop();
    throw new Error(`pim serves no window:\n${server.output()}`);
  }
  return { ...server, windowUrl: window };
}
