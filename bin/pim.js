#!/usr/bin/env node
// The one executable of pim. The TypeScript sources are compiled to dist/ by `npm ci` (prepare).
import { run } from '../dist/cli/main.js';

process.exitCode = await run(process.argv.slice(2));
