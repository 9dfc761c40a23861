import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  builtBundleSizes,
  bundleSizes,
  CATALOGUE_LIMIT_GZIP_BYTES,
  gzipBytes,
  upFrontScripts,
} from '../../scripts/bundle-size.js';

const DIST_UI = fileURLToPath(new URL('../../dist/ui', import.meta.url));

describe("the window's bundle size", () => {
  // Reads the build `npm test` makes first (`npm run build`); a focused run needs that build too.
  it('keeps the JavaScript loaded up front (the catalogue views) under 300 kB gzip', () => {
    expect(existsSync(join(DIST_UI, 'index.html')), 'dist/ui is missing: run `npm run build` first').toBe(
      true,
    );
    const sizes = builtBundleSizes(DIST_UI);
    expect(sizes.scripts.filter((s) => s.upFront).length).toBeGreaterThan(0);
    expect(sizes.upFront).toBeLessThanOrEqual(CATALOGUE_LIMIT_GZIP_BYTES);
  });

  it('counts the entry and its modulepreloads as up front, lazy chunks not', () => {
    const html = [
      '<script type="module" crossorigin src="/assets/index-a.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/vendor-b.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-c.css">',
    ].join('\n');
    expect(upFrontScripts(html)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);
    const files = new Map([
      ['/assets/index-a.js', 'a'.repeat(1000)],
      ['/assets/vendor-b.js', 'let b = 1;'],
      ['/assets/users-view-d.js', 'x'.repeat(5000)],
      ['/assets/index-c.css', 'body{}'],
    ]);
    const sizes = bundleSizes(html, files);
    expect(Object.fromEntries(sizes.scripts.map((s) => [s.file, s.upFront]))).toEqual({
      '/assets/index-a.js': true,
      '/assets/vendor-b.js': true,
      '/assets/users-view-d.js': false,
    });
    expect(sizes.upFront).toBe(gzipBytes('a'.repeat(1000)) + gzipBytes('let b = 1;'));
  });
});
