import { serversSeenFromOutside } from '../../app/running-servers.js';
import { saveSettings } from '../../app/settings-save.js';
import { openSystemStore } from '../../app/system-store.js';
import { systemClock } from '../../domain/clock.js';
import { systemContext } from '../../domain/context.js';
import { exposureWarning, windowExposureWarning } from '../../domain/settings/address-allow.js';
import {
  SETTING_KEYS,
  SettingsService,
  type SettingChanges,
  type SettingKey,
} from '../../domain/settings/settings.service.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';

/**
 * Settings live in the data folder alone (never in a shared database): the commands open only its
 * own store, so that they work while team mode's database is down (turning REST off, say).
 */
async function withSettings<T>(
  dataDir: string,
  action: (settings: SettingsService) => Promise<T>,
): Promise<T> {
  const local = await openSystemStore(dataDir);
  try {
    return await action(new SettingsService(local.db));
  } finally {
    await local.close();
  }
}

export async function settingsCommand({ dataDir, positionals, out }: CommandInput): Promise<void> {
  const [sub, key, value, ...extra] = positionals;
  if (sub === 'get') {
    if (value !== undefined) throw new UsageError('pim settings get takes at most one key');
    await withSettings(dataDir, async (settings) => {
      if (key) {
        out(String(await settings.get(key)));
        return;
      }
      const all = await settings.getAll();
      for (const k of SETTING_KEYS) out(`${k}=${String(all[k])}`);
    });
    return;
  }
  if (!key || value === undefined) throw new UsageError('pim settings set needs KEY and VALUE');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  await withSettings(dataDir, async (settings) => {
    // The command line acts as the machine's owner; the service refuses an unknown key. Saved
    // as the window saves: a port that cannot be bound now is refused, and nothing is stored.
    const servers = serversSeenFromOutside(dataDir);
    await saveSettings({ settings, servers }, systemContext(systemClock), {
      [key]: value,
    } as SettingChanges);
    const all = await settings.getAll();
    out(`${key}=${String(all[key as SettingKey])}`);
    const warning = exposureWarning(all);
    if (warning && (key === 'rest.host' || key === 'rest.allow')) process.stderr.write(`pim: ${warning}\n`);
    const windowWarning = windowExposureWarning(all);
    if (windowWarning && key === 'ui.host') process.stderr.write(`pim: ${windowWarning}\n`);
  });
}
