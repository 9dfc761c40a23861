import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RIGHTS } from '../../domain/context.js';
import { exposureWarning } from '../../domain/settings/address-allow.js';
import { ok } from '../../http/envelope.js';
import type { RestSettingsDto } from '../window-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import { RestSettingsRequest, type RestSettingsBody } from '../window.schemas.js';
import { windowContext } from '../window-context.js';

/** Settings › Rest API: the saved settings, the server's real state, and saving them (right Einstellungen). */
export function settingsRoutes(app: FastifyInstance, deps: WindowDeps): void {
  const view = async (request: FastifyRequest): Promise<RestSettingsDto> => {
    const settings = await deps.settings.getAll();
    return {
      enabled: settings['rest.enabled'],
      port: settings['rest.port'],
      host: settings['rest.host'],
      allow: settings['rest.allow'],
      state: deps.restState(),
      override: await deps.restOverride(),
      warning: exposureWarning(settings) ?? null,
      editable: request.user!.rights.includes(RIGHTS.settings),
    };
  };

  app.get('/ui/api/settings/rest', async (request) => ok(await view(request)));

  app.put<{ Body: RestSettingsBody }>(
    '/ui/api/settings/rest',
    { schema: { body: RestSettingsRequest } },
    async (request) => {
      const { enabled, port, host } = request.body;
      await deps.saveRestSettings(windowContext(request, deps), {
        'rest.enabled': enabled,
        'rest.port': port,
        'rest.host': host,
      });
      return ok(await view(request));
    },
  );
}
