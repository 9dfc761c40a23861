import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * The executable the tests spawn: bin/pim.js of a package test/cli-global-setup.ts built from the
 * current sources for this run (never a stale dist/). The package's own bin/pim.js, which runs
 * what `npm run build` compiled, runs in test/cli/npm-start.test.ts and test/mcp/readme-config.test.ts.
 */
export function pimBin(): string {
  const bin = process.env.PIM_TEST_BIN;
  if (!bin) throw new Error('PIM_TEST_BIN is not set: run the tests with vitest (test/cli-global-setup.ts)');
  return bin;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a `pim` that hashes passwords at the production cost, where a test depends on
 * it (the stored parameters, a login still in flight): the tests' pim otherwise inherits the cheap
 * hashes vitest.config.ts sets.
 */
export const PRODUCTION_HASHES = { PIM_TEST_WEAK_PASSWORD_HASHES: '' } as const;

export function cliEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, PIM_LOG_LEVEL: 'warn', ...env };
}

/** Runs `pim` (pimBin: the current sources) once. */
export function runCli(
  dataDir: string,
  args: string[],
  options: { stdin?: string; env?: Record<string, string> } = {},
): CliResult {
  const result = spawnSync(process.execPath, [pimBin(), '--data-dir', dataDir, ...args], {
    input: options.stdin ?? '',
    encoding: 'utf8',
    env: cliEnv(options.env),
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Like runCli, without blocking the event loop: several commands can run at once, and an
 * in-process server keeps answering meanwhile. `dataDir` undefined: no --data-dir flag.
 */
export function runCliAsync(
  dataDir: string | undefined,
  args: string[],
  options: { stdin?: string | Buffer; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const child = spawn(process.execPath, [pimBin(), ...(dataDir ? ['--data-dir', dataDir] : []), ...args], {
    env: cliEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d.toString()));
  child.stderr.on('data', (d) => (stderr += d.toString()));
  child.stdin.on('error', () => {}); // the command may exit before reading its input
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pim ${args.join(' ')} timed out:\n${stdout}${stderr}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface SpawnedProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code (null when killed by a signal) once the process ended. */
  exited: Promise<number | null>;
  /** SIGKILL if still running, then wait for the exit. */
  kill(): Promise<void>;
}

/** Spawns `pim --data-dir DIR ...args` and collects its output. */
export function spawnCli(dataDir: string, args: string[], env: Record<string, string> = {}): SpawnedProcess {
  const child = spawn(process.execPath, [pimBin(), '--data-dir', dataDir, ...args], {
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    output += d.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      ended = true;
      for (const listener of listeners) listener();
      resolve(code);
    }),
  );
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            done();
            resolve(match);
          } else if (ended) {
            done();
            reject(new Error(`pim exited before printing ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`pim did not print ${pattern} within ${timeoutMs} ms:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async kill() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface StartedProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output (e.g. the rest of the banner). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** Starts `pim start --port 0` as a child process and waits for its "REST API listening" line. */
export async function startCli(
  dataDir: string,
  env: Record<string, string> = {},
  extraArgs: string[] = [],
): Promise<StartedProcess> {
  const spawned = spawnCli(dataDir, ['start', '--port', '0', '--ui-port', '0', ...extraArgs], env);
  try {
    const match = await spawned.waitFor(/REST API listening on (http:\/\/\S+)\/api/);
    return {
      child: spawned.child,
      baseUrl: match[1]!,
      output: spawned.output,
      exited: spawned.exited,
      waitFor: spawned.waitFor,
    };
  } catch (error) {
    await spawned.kill();
    throw error;
  }
}
