import { parseArgs } from 'node:util';
import { DomainError } from '../domain/errors.js';
import { resolveDataDir } from '../app/data-dir.js';
import { UsageError } from './cli-error.js';
import { HELP } from './help.js';
import { startCommand } from './commands/start.command.js';
import { userCommand } from './commands/user.command.js';
import { workspaceCommand } from './commands/workspace.command.js';
import { settingsCommand } from './commands/settings.command.js';

export interface CommandInput {
  dataDir: string;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
  stdin: NodeJS.ReadableStream;
  out: (line: string) => void;
}

type Command = (input: CommandInput) => Promise<number | void>;

const COMMANDS: Record<
  string,
  { run: Command; options: Record<string, { type: 'string' | 'boolean' }>; sub?: string[] }
> = {
  start: { run: startCommand, options: { port: { type: 'string' }, host: { type: 'string' } } },
  user: {
    run: userCommand,
    options: { role: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    sub: ['add', 'list'],
  },
  workspace: {
    run: workspaceCommand,
    options: { path: { type: 'string' }, language: { type: 'string' } },
    sub: ['create', 'list'],
  },
  settings: { run: settingsCommand, options: {}, sub: ['set', 'get'] },
};

/** Runs `pim` with the given arguments; returns the exit code. */
export async function run(
  argv: string[],
  io = { stdin: process.stdin, out: (l: string) => console.log(l) },
): Promise<number> {
  try {
    const commandName = argv.find((a) => !a.startsWith('-') && argv[argv.indexOf(a) - 1] !== '--data-dir');
    const command = commandName ? COMMANDS[commandName] : undefined;
    if (
      commandName === 'help' ||
      (!command && (argv.includes('--help') || argv.includes('-h') || argv.length === 0))
    ) {
      io.out(HELP.main!);
      return argv.length === 0 ? 2 : 0;
    }
    if (!command) throw new UsageError(`unknown command '${commandName ?? argv[0]}'; see pim --help`);
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...command.options },
    });
    const rest = positionals.slice(1);
    if (values.help) {
      const sub = rest[0];
      io.out(HELP[sub && command.sub?.includes(sub) ? `${commandName} ${sub}` : commandName!] ?? HELP.main!);
      return 0;
    }
    if (command.sub && !command.sub.includes(rest[0] ?? '')) {
      throw new UsageError(
        rest[0]
          ? `unknown command '${commandName} ${rest[0]}'; see pim ${commandName} --help`
          : `pim ${commandName} needs one of: ${command.sub.join(', ')}`,
      );
    }
    const dataDir = resolveDataDir(values['data-dir'] as string | undefined);
    return (await command.run({ dataDir, positionals: rest, values, stdin: io.stdin, out: io.out })) ?? 0;
  } catch (error) {
    console.error(`pim: ${oneLine(error)}`);
    return error instanceof UsageError || isParseArgsError(error) ? 2 : 1;
  }
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
  return message.replace(/\s*\n\s*/g, ' ');
}
