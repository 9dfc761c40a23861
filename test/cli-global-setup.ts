import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/**
 * Packages bundled into the test package instead of loaded from node_modules: pure ES modules of
 * hundreds of files each (kysely 262, TypeBox 200), whose loading was most of a short command's
 * 1.1 s of CPU. No other package shares their values (TypeBox's kinds are global symbols anyway).
 * Every other package stays external, as installed: the native ones, and those that read files of
 * their own or whose values cross into other packages (Fastify's, the MCP SDK's zod).
 */
const INLINED = new Set(['kysely', '@sinclair/typebox']);

/**
 * The pim that the tests spawn (`pim start`, `pim user`, `pim mcp`...): a throwaway package built
 * from the current sources at the start of every run, so that a focused run never tests a stale
 * dist/ (`npm run build` is not part of it; no type check, a few seconds). Its layout is the
 * package's: bin/pim.js (a copy of the real one), dist/cli/main.js (and the worker threads'
 * entries where the build has them), and links to package.json,
 * node_modules and the built window (dist/ui). The sources are bundled by esbuild (the commands
 * stay separate chunks, loaded when run, as main.ts wants), together with INLINED: a `pim` process
 * then loads some 140 files instead of 700 (`pim start`: 600 instead of 1,070), and a short command
 * costs about 0.5 s of CPU instead of 1.1 s on the 2-core machine, hundreds of times a run. Each
 * module's `import.meta.url` is the URL it has in the built package (dist/app/version.js...), so
 * the paths it resolves from there (package.json, dist/ui, the demo catalogue) are the package's.
 * Tests that run the built package itself, as users do: test/cli/npm-start.test.ts and the
 * README's agent configuration (test/mcp/readme-config.test.ts).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'pim-cli-'));
  await build(dir);
  // Read by test/helpers/cli.ts in the workers, which inherit this process's environment.
  process.env.PIM_TEST_BIN = join(dir, 'bin', 'pim.js');
  // In watch mode the sources change between runs.
  project.onTestsRerun(() => build(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}

async function build(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'pim.js'), join(dir, 'bin', 'pim.js'));
  // esbuild as vite (a dependency of the project) has it.
  const esbuild = createRequire(join(ROOT, 'node_modules', 'vite', 'package.json'))(
    'esbuild',
  ) as typeof Esbuild;
  // Worker threads' entries (*.worker.ts) are loaded by their URL: each bundled to its place too.
  const workers = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) =>
    name.endsWith('.worker.ts'),
  );
  await esbuild.build({
    entryPoints: [join(SRC, 'cli', 'main.ts'), ...workers.map((name) => join(SRC, name))],
    outbase: SRC,
    outdir: join(dir, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'pim-test-package',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
            const name = path.split('/', path.startsWith('@') ? 2 : 1).join('/');
            return INLINED.has(name) ? undefined : { path, external: true };
          });
          build.onLoad({ filter: /\.ts$/ }, ({ path }) => {
            const url = pathToFileURL(join(dir, 'dist', relative(SRC, path).replace(/\.ts$/, '.js'))).href;
            const source = readFileSync(path, 'utf8').replaceAll('import.meta.url', JSON.stringify(url));
            return { contents: source, loader: 'ts' };
          });
        },
      },
    ],
  });
  // Data read at run time (the demo catalogue), copied as tsconfig.build.json has tsc copy it.
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => name.endsWith('.json') && !name.startsWith('ui/'))) {
    mkdirSync(dirname(join(dir, 'dist', file)), { recursive: true });
    copyFileSync(join(SRC, file), join(dir, 'dist', file));
  }
  for (const link of ['package.json', 'node_modules', 'schemas', join('dist', 'ui')])
    symlinkSync(join(ROOT, link), join(dir, link));
}
