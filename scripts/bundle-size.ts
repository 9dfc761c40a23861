import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The window's JavaScript as it reaches a browser: what index.html loads up front (the entry and
 * the chunks it preloads) is what the catalogue, the home view, waits for; lazily loaded chunks
 * (views imported with React.lazy) come later and only when opened. Issue 33: the catalogue
 * views' JavaScript stays under 300 kB gzip.
 */
export const CATALOGUE_LIMIT_GZIP_BYTES = 300_000;

/** Gzip at the level servers and Vite's reporter use by default. */
export function gzipBytes(code: string | Uint8Array): number {
  return gzipSync(code).length;
}

/** The scripts index.html loads before the window starts: the module entry and its modulepreloads. */
export function upFrontScripts(indexHtml: string): string[] {
  const found = [
    ...indexHtml.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+\.js)"/g),
    ...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ];
  return found.map((match) => match[1]!);
}

export interface BundleSizes {
  /** Gzip bytes of the up-front scripts together. */
  upFront: number;
  /** Every script of the build: bytes and gzip bytes, up front or lazy. */
  scripts: { file: string; bytes: number; gzip: number; upFront: boolean }[];
}

/** The sizes of a built window (dist/ui): `files` maps a served path ('/assets/x.js') to its code. */
export function bundleSizes(indexHtml: string, files: Map<string, string | Uint8Array>): BundleSizes {
  const upFront = new Set(upFrontScripts(indexHtml));
  const scripts = [...files]
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, code]) => ({
      file,
      bytes: Buffer.byteLength(code),
      gzip: gzipBytes(code),
      upFront: upFront.has(file),
    }))
    .sort((a, b) => b.gzip - a.gzip);
  return { upFront: scripts.filter((s) => s.upFront).reduce((sum, s) => sum + s.gzip, 0), scripts };
}

/** The same, read from a built folder (dist/ui). */
export function builtBundleSizes(dir: string): BundleSizes {
  const indexHtml = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = new Map<string, string>();
  for (const name of readdirSync(join(dir, 'assets'))) {
    files.set(`/assets/${name}`, readFileSync(join(dir, 'assets', name), 'utf8'));
  }
  return bundleSizes(indexHtml, files);
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The lines the build prints. */
export function sizeReport(sizes: BundleSizes): string[] {
  const verdict = sizes.upFront <= CATALOGUE_LIMIT_GZIP_BYTES ? 'within' : 'OVER';
  return [
    `window JavaScript: ${kB(sizes.upFront)} gzip loaded up front (the catalogue views), ${verdict} the ${kB(CATALOGUE_LIMIT_GZIP_BYTES)} limit`,
    ...sizes.scripts.map(
      (s) =>
        `  ${s.file}  ${kB(s.bytes)}, ${kB(s.gzip)} gzip${s.upFront ? '' : ' (loaded when its view opens)'}`,
    ),
  ];
}
