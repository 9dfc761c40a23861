import type { FastifyInstance } from 'fastify';
import { languageList } from '../../domain/languages/language-list.js';
import { ok } from '../../http/envelope.js';

/** The ISO 639-2 languages for the window's language pickers (a text's or a value's language). */
export function languagesRoutes(app: FastifyInstance): void {
  app.get('/ui/api/languages', async () => ok(languageList()));
}
