/**
 * The opening's request leaves from here. The build makes this module a chunk of its own that
 * index.html runs before the window's bundle (vite.config.ts, openingFirst), so the request leaves
 * while the browser still loads and compiles the bundle; main.tsx imports it first too (the same
 * module, run once), which is what runs it in development (`npm run dev:ui`).
 */
import { startOpening } from './opening-requests.js';

startOpening();
