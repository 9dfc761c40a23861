import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The application window (src/ui), built into dist/ui and served by the application itself.
 * `npm run dev:ui` serves it with hot reload and sends /ui/api to a running `pim start`.
 */
export default defineConfig({
  root: 'src/ui',
  base: '/',
  plugins: [react()],
  build: { outDir: '../../dist/ui', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/ui/api': 'http://127.0.0.1:8764' } },
});
