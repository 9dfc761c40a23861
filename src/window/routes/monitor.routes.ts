import type { FastifyInstance } from 'fastify';
import type { MonitorEntry } from '../../app/request-monitor.js';
import { ok } from '../../http/envelope.js';
import type { WindowEvents } from '../window-events.js';
import { sameSession } from './session.routes.js';
import type { WindowDeps } from '../window-deps.js';

/** New entries are sent at most this often, in one batch: a burst of requests is a few events. */
const BATCH_MS = 100;

/** Window › REST API Monitor: the latest entries, then every new one, live. */
export function monitorRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get('/ui/api/monitor', async () => ok(deps.monitor.latest()));

  app.get('/ui/api/monitor/stream', async (request, reply) => {
    let batch: MonitorEntry[] = [];
    let timer: NodeJS.Timeout | undefined;
    const stream = events.all.open(reply, () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    });
    const flush = () => {
      timer = undefined;
      const entries = batch;
      batch = [];
      stream.send('entries', entries);
    };
    const unsubscribe = deps.monitor.subscribe((entry) => {
      batch.push(entry);
      timer ??= setTimeout(flush, BATCH_MS);
    });
    if (!sameSession(deps, request.user!)) return stream.end();
    stream.send('entries', deps.monitor.latest());
  });
}
