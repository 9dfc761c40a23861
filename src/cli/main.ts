import { parseArgs } from 'node:util';
import { DomainError } from '../domain/errors.js';
import { checkDataDir, resolveDataDir } from '../app/data-dir.js';
import { UsageError } from './cli-error.js';
import type { CommandInput } from './command-input.js';
import { HELP, mainHelp } from './help.js';
import { printable } from './printable.js';

type Command = (input: CommandInput) => Promise<number | void>;

// Commands are imported when run: `pim --help` and the short commands start without loading
// the HTTP stack (a CLI call costs about half the time).

const COMMANDS: Record<
  string,
  {
    run: Command;
    options: Record<string, { type: 'string' | 'boolean' }>;
    sub?: string[];
    /**
     * The (sub)commands that may create a missing data folder: those that set up an installation
     * or store something in it (README's script starts a new folder with `pim user add`). The
     * others only read or change what is there, so a missing folder is a mistyped path.
     */
    createsDataDir?: true | string[];
    /** The command reads no data folder (`pim validate` checks a file only). */
    noDataDir?: true;
  }
> = {
  start: {
    createsDataDir: true,
    run: async (input) => (await import('./commands/start.command.js')).startCommand(input),
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'ui-port': { type: 'string' },
      'no-ui': { type: 'boolean' },
    },
  },
  user: {
    run: async (input) => (await import('./commands/user.command.js')).userCommand(input),
    options: { role: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    sub: ['add', 'list', 'set-role', 'passwd', 'disable', 'enable', 'logout'],
    createsDataDir: ['add'],
  },
  workspace: {
    run: async (input) => (await import('./commands/workspace.command.js')).workspaceCommand(input),
    options: {
      path: { type: 'string' },
      language: { type: 'string' },
      workspace: { type: 'string' },
      'catalog-id': { type: 'string' },
      'catalog-version': { type: 'string' },
      'catalog-name': { type: 'string' },
      'supplier-name': { type: 'string' },
      'supplier-id': { type: 'string' },
      'supplier-id-type': { type: 'string' },
    },
    sub: ['create', 'list', 'header'],
    createsDataDir: ['create'],
  },
  mcp: {
    run: async (input) => (await import('./commands/mcp.command.js')).mcpCommand(input),
    options: { user: { type: 'string' }, 'read-only': { type: 'boolean' }, tools: { type: 'string' } },
  },
  setup: {
    run: async (input) => (await import('./commands/setup.command.js')).setupCommand(input),
    options: { database: { type: 'string' }, force: { type: 'boolean' } },
    createsDataDir: true,
  },
  db: {
    run: async (input) => (await import('./commands/db.command.js')).dbCommand(input),
    options: { to: { type: 'string' } },
    sub: ['move'],
  },
  import: {
    run: async (input) => (await import('./commands/import.command.js')).importCommand(input),
    options: {
      workspace: { type: 'string' },
      mode: { type: 'string' },
      format: { type: 'string' },
      'dry-run': { type: 'boolean' },
      'continue-on-error': { type: 'boolean' },
    },
  },
  validate: {
    run: async (input) => (await import('./commands/validate.command.js')).validateCommand(input),
    options: {},
    noDataDir: true,
  },
  export: {
    run: async (input) => (await import('./commands/export.command.js')).exportCommand(input),
    options: {
      workspace: { type: 'string' },
      format: { type: 'string' },
      languages: { type: 'string' },
      group: { type: 'string' },
      strict: { type: 'boolean' },
      columns: { type: 'string' },
      q: { type: 'string' },
      ids: { type: 'string' },
      'include-subgroups': { type: 'boolean' },
      'main-only': { type: 'boolean' },
      'include-variants': { type: 'boolean' },
      bom: { type: 'boolean' },
    },
  },
  settings: {
    run: async (input) => (await import('./commands/settings.command.js')).settingsCommand(input),
    options: {},
    sub: ['set', 'get'],
    createsDataDir: ['set'],
  },
};

type OptionTypes = Record<string, { type: 'string' | 'boolean'; short?: string }>;

const GLOBAL_OPTIONS: OptionTypes = { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } };

/** Runs `pim` with the given arguments; returns the exit code. */
export async function run(
  argv: string[],
  io = { stdin: process.stdin, out: (l: string) => console.log(l) },
): Promise<number> {
  try {
    const commandName = argv.find((a) => !a.startsWith('-') && argv[argv.indexOf(a) - 1] !== '--data-dir');
    const command = commandName ? COMMANDS[commandName] : undefined;
    const wantsHelp = argv.includes('--help') || argv.includes('-h');
    // `pim --data-dir` (its folder missing) or an unknown option: one line, as after a command.
    if (commandName === undefined && !wantsHelp)
      parseArgs({ args: argv, allowPositionals: true, strict: true, options: GLOBAL_OPTIONS });
    // No command at all (also `pim --data-dir DIR`): the usage text, exit 2 unless help was asked for.
    if (commandName === 'help' || (!command && wantsHelp) || commandName === undefined) {
      io.out(await usage());
      return commandName === 'help' || wantsHelp ? 0 : 2;
    }
    if (!command) throw new UsageError(`unknown command '${commandName ?? argv[0]}'; see pim --help`);
    const options: OptionTypes = { ...GLOBAL_OPTIONS, ...command.options };
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options,
    });
    refuseRepeatedValues(tokens, options);
    const rest = positionals.slice(1);
    if (values.help) {
      const sub = rest[0];
      io.out(
        HELP[sub && command.sub?.includes(sub) ? `${commandName} ${sub}` : commandName!] ?? (await usage()),
      );
      return 0;
    }
    if (command.sub && !command.sub.includes(rest[0] ?? '')) {
      throw new UsageError(
        rest[0]
          ? `unknown command '${commandName} ${rest[0]}'; see pim ${commandName} --help`
          : `pim ${commandName} needs one of: ${command.sub.join(', ')}`,
      );
    }
    const flag = values['data-dir'] as string | undefined;
    // An empty value (an unset shell variable) must not fall back to PIM_DATA_DIR or the default.
    if (flag !== undefined && flag.trim() === '')
      throw new UsageError('--data-dir needs a folder; it is empty');
    const dataDir = resolveDataDir(flag);
    const creates = command.createsDataDir;
    if (!command.noDataDir)
      checkDataDir(dataDir, creates === true || (creates?.includes(rest[0] ?? '') ?? false));
    return (await command.run({ dataDir, positionals: rest, values, stdin: io.stdin, out: io.out })) ?? 0;
  } catch (error) {
    console.error(`pim: ${oneLine(error)}`);
    return error instanceof UsageError || isParseArgsError(error) ? 2 : 1;
  }
}

/**
 * parseArgs keeps the last of a repeated option: `--role VIEWER --role ADMIN` would make an ADMIN,
 * `--to A --to B` move into B. An option with a value is taken once; a repeated switch is harmless.
 */
function refuseRepeatedValues(tokens: ReturnType<typeof parseArgs>['tokens'], options: OptionTypes): void {
  const seen = new Set<string>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option' || options[token.name]?.type !== 'string') continue;
    if (seen.has(token.name)) throw new UsageError(`${token.rawName} given twice; give it once`);
    seen.add(token.name);
  }
}

async function usage(): Promise<string> {
  return mainHelp((await import('../domain/settings/settings.service.js')).SETTING_KEYS);
}

function isParseArgsError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')
  );
}

function oneLine(error: unknown): string {
  const message = error instanceof DomainError || error instanceof Error ? error.message : String(error);
  return printable(message.replace(/\s*\n\s*/g, ' '));
}
