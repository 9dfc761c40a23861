import { exposureWarning, windowExposureWarning } from '../../domain/settings/address-allow.js';
import { SETTING_KEYS } from '../../domain/settings/settings.service.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../main.js';
import { withApplication } from './with-app.js';

export async function settingsCommand({ dataDir, positionals, out }: CommandInput): Promise<void> {
  const [sub, key, value, ...extra] = positionals;
  if (sub === 'get') {
    if (value !== undefined) throw new UsageError('pim settings get takes at most one key');
    await withApplication(dataDir, async (app) => {
      if (key) {
        out(String(await app.settings.get(key)));
        return;
      }
      const all = await app.settings.getAll();
      for (const k of SETTING_KEYS) out(`${k}=${String(all[k])}`);
    });
    return;
  }
  if (!key || value === undefined) throw new UsageError('pim settings set needs KEY and VALUE');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  await withApplication(dataDir, async (app) => {
    const stored = await app.settings.set(key, value);
    out(`${key}=${String(stored)}`);
    const settings = await app.settings.getAll();
    const warning = exposureWarning(settings);
    if (warning && (key === 'rest.host' || key === 'rest.allow')) process.stderr.write(`pim: ${warning}\n`);
    const windowWarning = windowExposureWarning(settings);
    if (windowWarning && key === 'ui.host') process.stderr.write(`pim: ${windowWarning}\n`);
  });
}
