import { readFileSync } from 'node:fs';

/** The application's version, from package.json (shown in Help › About). */
export const APP_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
