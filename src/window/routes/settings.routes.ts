import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RIGHTS } from '../../domain/context.js';
import { ValidationError } from '../../domain/errors.js';
import { exposureWarning } from '../../domain/settings/address-allow.js';
import { ok } from '../../http/envelope.js';
import { listenProblem } from '../../app/listening-server.js';
import { probePort } from '../port-probe.js';
import type { ErrorParams } from '../window-errors.js';
import type { RestSettingsDto } from '../window-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import { RestSettingsRequest, type RestSettingsBody } from '../window.schemas.js';
import { windowContext } from '../window-context.js';

function portRefused(host: string, port: number, code: string): ValidationError {
  const error = new ValidationError(`Port ${port} on ${host} ${listenProblem(code)}`, 'PORT_IN_USE');
  return Object.assign(error, {
    field: code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? 'host' : 'port',
    params: { port, host, reason: code } satisfies ErrorParams,
  });
}

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
      const ctx = windowContext(request, deps);
      const { enabled, port, host } = request.body;
      const changes = { 'rest.enabled': enabled, 'rest.port': port, 'rest.host': host };
      // Right and values first, then whether the port is free: a busy port is refused before anything is saved.
      deps.settings.check(ctx, changes);
      // Where the server will listen: a start option (--port, --host) stays in force while the
      // setting it replaces is saved unchanged, so that endpoint is probed, not the stored one.
      const override = await deps.restOverride({ port, host });
      const target = { host: override.host ?? host, port: override.port ?? port };
      const running = deps.restState();
      const moves = !running.running || running.port !== target.port || running.host !== target.host;
      // On the port pim serves now, a probe would find pim itself ("in use by another program")
      // and refuse narrowing 0.0.0.0 to 127.0.0.1: the listener moves that itself (closing the
      // old endpoint first, serving it again if the new one fails), and the error comes below.
      // Port 0 (--port 0) takes any free port: nothing to probe.
      const samePort = running.running && running.port === target.port;
      if (enabled && moves && !samePort && target.port !== 0) {
        const problem = await probePort(target.host, target.port);
        if (problem) throw portRefused(target.host, target.port, problem);
      }
      const before = await deps.settings.update(ctx, changes);
      try {
        await deps.applySettings();
      } catch (error) {
        // Taken between the probe and the start: put everything back as it was.
        await deps.settings.update(ctx, {
          'rest.enabled': before['rest.enabled'],
          'rest.port': before['rest.port'],
          'rest.host': before['rest.host'],
        });
        await deps.applySettings().catch(() => undefined);
        throw portRefused(target.host, target.port, (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN');
      }
      return ok(await view(request));
    },
  );
}
