import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { MonitorEpoch, NumberedMonitorEntry } from '../window-api.types.js';
import type { WindowEvents } from '../window-events.js';
import { sameSession } from './session.routes.js';
import type { MonitorFeed, WindowDeps } from '../window-deps.js';

/** New entries are sent at most this often, in one batch: a burst of requests is a few events. */
const BATCH_MS = 100;

/** One id per monitor (per run of the application): numbers from another run start again at 1. */
const epochs = new WeakMap<MonitorFeed, string>();
function epochOf(monitor: MonitorFeed): string {
  let epoch = epochs.get(monitor);
  if (!epoch) epochs.set(monitor, (epoch = randomUUID()));
  return epoch;
}

/** The latest entries, numbered: the newest is number `recorded`. */
function latestNumbered(monitor: MonitorFeed): NumberedMonitorEntry[] {
  const latest = monitor.latest();
  const first = monitor.recorded - latest.length + 1;
  return latest.map((entry, i) => ({ ...entry, seq: first + i }));
}

/**
 * Window › REST API Monitor: the latest entries, then every new one, live. Every connection
 * starts with the epoch and the latest entries again (a reconnecting window may have missed
 * some); the numbers let the window skip those it has, and those it cleared.
 */
export function monitorRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get('/ui/api/monitor', async () => ok(deps.monitor.latest()));

  app.get('/ui/api/monitor/stream', async (request, reply) => {
    let batch: NumberedMonitorEntry[] = [];
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
    // Listeners are called as the entry is recorded: its number is the count so far.
    const unsubscribe = deps.monitor.subscribe((entry) => {
      batch.push({ ...entry, seq: deps.monitor.recorded });
      timer ??= setTimeout(flush, BATCH_MS);
    });
    if (!sameSession(deps, request.user!)) return stream.end();
    stream.send('epoch', { epoch: epochOf(deps.monitor) } satisfies MonitorEpoch);
    stream.send('entries', latestNumbered(deps.monitor));
  });
}
