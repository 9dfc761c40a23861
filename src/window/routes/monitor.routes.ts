import type { FastifyInstance } from 'fastify';
import type { MonitorEntry } from '../../app/request-monitor.js';
import { ok } from '../../http/envelope.js';
import { openEventStream } from '../event-stream.js';
import type { WindowDeps } from '../window-deps.js';

/** New entries are sent at most this often, in one batch: a burst of requests is a few events. */
const BATCH_MS = 100;

/** Window › REST API Monitor: the latest entries, then every new one, live. */
export function monitorRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get('/ui/api/monitor', async () => ok(deps.monitor.latest()));

  app.get('/ui/api/monitor/stream', async (_request, reply) => {
    let batch: MonitorEntry[] = [];
    let timer: NodeJS.Timeout | undefined;
    const stream = openEventStream(reply, () => {
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
    stream.send('entries', deps.monitor.latest());
  });
}
