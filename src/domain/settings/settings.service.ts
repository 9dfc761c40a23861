import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import type { SystemDatabase } from '../../db/system.schema.js';
import { requireRight, type RequestContext } from '../context.js';
import { ValidationError } from '../errors.js';
import { RIGHTS } from '../users/roles.js';
import { parseAllowList } from './address-allow.js';

export interface Settings {
  'rest.enabled': boolean;
  'rest.port': number;
  'rest.host': string;
  'rest.allow': string;
  'ui.host': string;
  'ui.port': number;
}
export type SettingKey = keyof Settings;
/**
 * Settings to save: each value as its type has it, or as text from the command line ("true",
 * "8765"); every key's definition parses both.
 */
export type SettingChanges = { readonly [K in SettingKey]?: Settings[K] | string };

interface SettingDefinition<T> {
  default: T;
  description: string;
  /** Parses a value typed on the command line or sent as JSON; throws ValidationError. */
  parse(value: unknown): T;
  /**
   * Reads a stored value back (default: parse). Rules that were tightened after a value was
   * saved must not make every later read fail, `pim start` and `pim settings get` included:
   * such a value is read as it was saved, and using it says what is wrong with it.
   */
  stored?(value: unknown): T;
}

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function parsePort(key: string, value: unknown): number {
  const port = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) {
    throw new ValidationError(`${key} must be a whole number from 1024 to 65535, not '${String(value)}'`);
  }
  return port;
}

/**
 * A name whose last label is a number is no host name: resolvers and URL parsers read it as an
 * IPv4 address (`1.2.3` as 1.2.0.3) or refuse it (`999.1.1.1`), so it is refused here.
 */
const ENDS_IN_NUMBER = /(?:^|\.)(?:\d+|0x[0-9a-f]*)$/i;

/** A host saved before the host rules tightened (c109d7b) is read as it is: binding it explains. */
function storedHost(key: string, value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : parseHost(key, value);
}

function parseHost(key: string, value: unknown): string {
  const host = String(value);
  if (isIP(host) === 0 && (!HOSTNAME.test(host) || ENDS_IN_NUMBER.test(host))) {
    throw new ValidationError(`${key} must be an IP address or host name, not '${host}'`);
  }
  return host;
}

export const SETTING_DEFINITIONS: { [K in SettingKey]: SettingDefinition<Settings[K]> } = {
  'rest.enabled': {
    default: false,
    description: 'Whether the REST server runs',
    parse(value) {
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      throw new ValidationError(`rest.enabled must be true or false, not '${String(value)}'`);
    },
  },
  'rest.port': {
    default: 8765,
    description: 'TCP port of the REST server (1024 to 65535)',
    parse: (value) => parsePort('rest.port', value),
  },
  'rest.host': {
    default: '127.0.0.1',
    description: 'Address the REST server binds to; 127.0.0.1 answers this machine only',
    parse: (value) => parseHost('rest.host', value),
    stored: (value) => storedHost('rest.host', value),
  },
  'rest.allow': {
    default: '',
    description:
      'Addresses and CIDR ranges allowed to call the REST server, comma-separated; empty: everyone who can reach it',
    parse: parseAllowList,
  },
  'ui.host': {
    default: '127.0.0.1',
    description: "Address the application window's server binds to; 127.0.0.1 answers this machine only",
    parse: (value) => parseHost('ui.host', value),
    stored: (value) => storedHost('ui.host', value),
  },
  'ui.port': {
    default: 8764,
    description: "TCP port of the application window's server (1024 to 65535)",
    parse: (value) => parsePort('ui.port', value),
  },
};

export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTING_DEFINITIONS, key);
}

function assertKey(key: string): asserts key is SettingKey {
  if (!isSettingKey(key)) {
    throw new ValidationError(`Unknown setting '${key}'; known settings: ${SETTING_KEYS.join(', ')}`);
  }
}

async function storeSetting(db: Kysely<SystemDatabase>, key: SettingKey, value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('setting')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}

export class SettingsService {
  constructor(private readonly db: Kysely<SystemDatabase>) {}

  async getAll(): Promise<Settings> {
    const rows = await this.db.selectFrom('setting').selectAll().execute();
    const stored = new Map(rows.map((r) => [r.key, r.value]));
    const result = {} as Record<SettingKey, unknown>;
    for (const key of SETTING_KEYS) {
      const raw = stored.get(key);
      const definition: SettingDefinition<unknown> = SETTING_DEFINITIONS[key];
      result[key] =
        raw === undefined ? definition.default : (definition.stored ?? definition.parse)(JSON.parse(raw));
    }
    return result as Settings;
  }

  async get(key: string): Promise<Settings[SettingKey]> {
    assertKey(key);
    return (await this.getAll())[key];
  }

  /**
   * Checks settings for a user without saving them: the right Einstellungen, then every value (a
   * ValidationError names the key in `field`). Returns them parsed.
   */
  check(ctx: RequestContext, changes: SettingChanges): [SettingKey, unknown][] {
    requireRight(ctx, RIGHTS.settings);
    return Object.entries(changes).map(([key, value]) => {
      assertKey(key);
      try {
        return [key, SETTING_DEFINITIONS[key].parse(value as never)];
      } catch (error) {
        if (error instanceof ValidationError) Object.assign(error, { field: key });
        throw error;
      }
    });
  }

  /**
   * The one way to save settings, one or several at once, for whoever asks: the window's user,
   * or the machine's owner (the CLI, the first run). Checked as by `check`, all stored together.
   * Returns the settings as they were before, so that a caller can put them back.
   */
  async update(ctx: RequestContext, changes: SettingChanges): Promise<Settings> {
    const parsed = this.check(ctx, changes);
    const before = await this.getAll();
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of parsed) await storeSetting(trx, key, value);
    });
    return before;
  }

  async anyStored(): Promise<boolean> {
    return (await this.db.selectFrom('setting').select('key').limit(1).executeTakeFirst()) !== undefined;
  }
}
