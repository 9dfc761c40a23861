import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
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

/** The opening's request in a chunk of its own (start-opening.ts and the few modules it needs). */
const OPENING_ENTRY = 'opening';

/**
 * index.html runs the opening's chunk as a script of its own, before the window's bundle: the
 * opening's request then leaves as soon as the page is parsed, while the browser still loads,
 * compiles and runs the 850 kB bundle, instead of once the bundle runs (main.tsx imports the same
 * chunk, so both share one instance of its modules and the request leaves once).
 */
function openingFirst(): Plugin {
  return {
    name: 'pim:opening-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const chunk = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === OPENING_ENTRY,
        );
        if (!chunk) throw new Error(`the build has no ${OPENING_ENTRY} chunk`);
        const tag = `<script type="module" crossorigin src="/${chunk.fileName}"></script>`;
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script');
        return `${html.slice(0, at)}${tag}\n    ${html.slice(at)}`;
      },
    },
  };
}

const ui = (path: string) => fileURLToPath(new URL(`./src/ui/${path}`, import.meta.url));

/**
 * The application window (src/ui), built into dist/ui and served by the application itself.
 * `npm run dev:ui` serves it with hot reload and sends /ui/api to a running `pim start`.
 */
export default defineConfig({
  root: 'src/ui',
  base: '/',
  plugins: [react(), openingFirst(), bundleSizeReport()],
  build: {
    outDir: '../../dist/ui',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { input: { index: ui('index.html'), [OPENING_ENTRY]: ui('start-opening.ts') } },
  },
  server: { proxy: { '/ui/api': 'http://127.0.0.1:8764' } },
});
