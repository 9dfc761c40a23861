import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPO_ROOT } from './processes.js';

export interface BuildReport {
  /** 'fresh': dist/ was up to date; 'built': npm run build succeeded; 'failed': it reported errors. */
  state: 'fresh' | 'built' | 'failed';
  seconds: number;
  /** The compiler's complaints when the build failed (tsc still emits JavaScript). */
  errors?: string;
}

function sources(dir: string, extensions: readonly string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path, extensions);
    return extensions.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The first source file whose compiled dist/ file is missing or older, if any. The window's
 * sources (src/ui) are bundled by Vite, not compiled file by file: they count as stale when newer
 * than the bundle's index.html.
 */
export function staleSource(): string | undefined {
  const src = join(REPO_ROOT, 'src');
  const ui = join(src, 'ui');
  const bundle = join(REPO_ROOT, 'dist', 'ui', 'index.html');
  const bundled = existsSync(bundle) ? statSync(bundle).mtimeMs : -Infinity;
  const staleUi = sources(ui, ['.ts', '.tsx', '.css', '.html']).find(
    (file) => statSync(file).mtimeMs > bundled,
  );
  if (staleUi) return staleUi;
  return sources(src, ['.ts'])
    .filter((file) => !file.startsWith(ui + sep))
    .find((file) => {
      const out = join(REPO_ROOT, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
      return !existsSync(out) || statSync(out).mtimeMs < statSync(file).mtimeMs;
    });
}

/** Runs `npm run build` when dist/ is older than src/ (bin/pim.js runs dist/). */
export function ensureBuilt(): BuildReport {
  const started = performance.now();
  const stale = staleSource();
  if (!stale) return { state: 'fresh', seconds: 0 };
  console.log(`dist/ is older than ${relative(REPO_ROOT, stale)}: npm run build`);
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, encoding: 'utf8' });
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  if (result.status === 0) return { state: 'built', seconds };
  return { state: 'failed', seconds, errors: `${result.stdout}${result.stderr}`.trim().slice(-4000) };
}
