import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithEsbuild } from 'vite';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The pim that the tests spawn (`pim start`, `pim user`, `pim mcp`...): a throwaway package built
 * from the current sources at the start of every run, so that a focused run never tests a stale
 * dist/ (`npm run build` is not part of it). Its layout is the package's: bin/pim.js (a copy of
 * the real one), dist/ from src/ (each file stripped of its types by esbuild, as vitest does for
 * the tests themselves; no type check, about a second), and links to package.json, node_modules
 * and the built window (dist/ui), so paths relative to a module resolve as in the real package.
 * Spawning it costs what spawning the built package costs; running the sources through tsx's
 * loader instead cost about 1.5 s of CPU more per process on the 2-core machine, hundreds of
 * times a run. Tests that run the built package as users do: test/cli/npm-start.test.ts and the
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
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' });
  const sources = files.filter((file) => file.endsWith('.ts') && !file.startsWith(`ui/`));
  await Promise.all(
    sources.map(async (file) => {
      const source = join(ROOT, 'src', file);
      const { code } = await transformWithEsbuild(readFileSync(source, 'utf8'), source, {
        loader: 'ts',
        format: 'esm',
        target: 'node20',
      });
      const out = join(dir, 'dist', file.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }),
  );
  // Data read at run time (the demo catalogue), copied as tsconfig.build.json has tsc copy it.
  for (const file of files.filter((name) => name.endsWith('.json') && !name.startsWith('ui/'))) {
    mkdirSync(dirname(join(dir, 'dist', file)), { recursive: true });
    copyFileSync(join(ROOT, 'src', file), join(dir, 'dist', file));
  }
  for (const link of ['package.json', 'node_modules', join('dist', 'ui')])
    symlinkSync(join(ROOT, link), join(dir, link));
}
