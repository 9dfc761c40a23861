import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bundleSizes, sizeReport } from './scripts/bundle-size.js';

/**
 * Prints the window's JavaScript sizes after a build, gzip included (issue 33: the catalogue views
 * stay under 300 kB gzip). Printed directly: `npm run build` runs Vite at --logLevel warn, which
 * silences Vite's own size report.
 */
function bundleSizeReport(): Plugin {
  return {
    name: 'pim:bundle-size',
    apply: 'build',
    writeBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const files = new Map<string, string | Uint8Array>();
      for (const output of Object.values(bundle)) {
        files.set(`/${output.fileName}`, output.type === 'chunk' ? output.code : output.source);
      }
      console.log(sizeReport(bundleSizes(String(html.source), files)).join('\n'));
    },
  };
}

/**
 * The application window (src/ui), built into dist/ui and served by the application itself.
 * `npm run dev:ui` serves it with hot reload and sends /ui/api to a running `pim start`.
 */
export default defineConfig({
  root: 'src/ui',
  base: '/',
  plugins: [react(), bundleSizeReport()],
  build: { outDir: '../../dist/ui', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/ui/api': 'http://127.0.0.1:8764' } },
});
