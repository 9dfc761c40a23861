import { runningProcesses } from './running-processes.js';
import type { ServerPlaces } from './settings-save.js';

/**
 * The servers as a command sees them from outside (`pim settings set`): a `pim start` running on
 * the data folder is taken to listen where the saved settings say (its --port and --host are its
 * own, not known here), and it applies what is saved itself, within a second of the commit
 * (Application.pollSettings), saying on its own output where the servers went.
 */
export function serversSeenFromOutside(dataDir: string): ServerPlaces {
  const started = runningProcesses(dataDir).some((process) => process.role === 'start');
  return {
    listening(server, saved) {
      if (!started) return undefined;
      if (server === 'ui') return { host: saved['ui.host'], port: saved['ui.port'] };
      return saved['rest.enabled'] ? { host: saved['rest.host'], port: saved['rest.port'] } : undefined;
    },
    target: (server, settings) =>
      server === 'rest'
        ? { host: settings['rest.host'], port: settings['rest.port'] }
        : { host: settings['ui.host'], port: settings['ui.port'] },
  };
}
