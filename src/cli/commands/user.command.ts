import type { Application } from '../../app/application.js';
import { ValidationError } from '../../domain/errors.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';
import { printable } from '../printable.js';
import { withApplication } from './with-app.js';

/**
 * The first line of standard input without its line ending, decoded strictly: bytes that are not
 * UTF-8 are refused, not replaced by U+FFFD, which would store a password other than the one sent.
 */
async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    chunks.push(bytes);
    if (bytes.includes(0x0a)) break;
  }
  const input = Buffer.concat(chunks);
  let end = input.indexOf(0x0a);
  if (end > 0 && input[end - 1] === 0x0d) end--;
  const line = end === -1 ? input : input.subarray(0, end);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(line);
  } catch {
    throw new ValidationError('the password on standard input is not valid UTF-8');
  }
}

/**
 * The positional arguments each subcommand takes, and its options. set-role's ROLE may also be
 * given as add takes it, `--role ROLE` (then it is not an argument).
 */
const SUBCOMMANDS: Record<string, { args: string[]; options: string[] }> = {
  add: { args: ['NAME'], options: ['role', 'password-stdin'] },
  list: { args: [], options: [] },
  'set-role': { args: ['NAME', 'ROLE'], options: ['role'] },
  passwd: { args: ['NAME'], options: ['password-stdin'] },
  disable: { args: ['NAME'], options: [] },
  enable: { args: ['NAME'], options: [] },
  logout: { args: ['NAME'], options: [] },
};

function checkUsage(sub: string, args: string[], values: CommandInput['values']): void {
  const spec = SUBCOMMANDS[sub]!;
  const roleFlag = sub === 'set-role' && values.role !== undefined;
  if (roleFlag && args.length > 1) {
    throw new UsageError('pim user set-role takes the role once: NAME ROLE or NAME --role ROLE');
  }
  const wanted = roleFlag ? spec.args.filter((arg) => arg !== 'ROLE') : spec.args;
  if (args.length < wanted.length) {
    throw new UsageError(`pim user ${sub} needs ${wanted.slice(args.length).join(' and ')}`);
  }
  if (args.length > wanted.length) throw new UsageError(`unexpected argument '${args[wanted.length]}'`);
  for (const option of ['role', 'password-stdin']) {
    if (values[option] !== undefined && !spec.options.includes(option)) {
      throw new UsageError(`pim user ${sub} takes no --${option}`);
    }
  }
  if (spec.options.includes('password-stdin') && !values['password-stdin']) {
    throw new UsageError(`pim user ${sub} needs --password-stdin (the password is read from standard input)`);
  }
}

function sessions(count: number): string {
  return count === 1 ? '1 session' : `${count} sessions`;
}

export async function userCommand({ dataDir, positionals, values, stdin, out }: CommandInput): Promise<void> {
  const [sub = '', ...args] = positionals;
  checkUsage(sub, args, values);
  if (sub === 'add' && typeof values.role !== 'string') {
    throw new UsageError('pim user add needs --role ADMIN|EDITOR|VIEWER');
  }
  const password = SUBCOMMANDS[sub]!.options.includes('password-stdin') ? await readFirstLine(stdin) : '';
  const [name = '', second = ''] = args;
  const role = typeof values.role === 'string' ? values.role : second;
  await withApplication(dataDir, async (app) => {
    for (const line of await run(app, sub, { name, role, password })) out(line);
  });
}

/** Runs one subcommand as the machine's owner; returns the lines to print. */
async function run(
  app: Application,
  sub: string,
  { name, role, password }: { name: string; role: string; password: string },
): Promise<string[]> {
  const ctx = app.ownerContext();
  if (sub === 'add') {
    const user = await app.users.add(ctx, { username: name, role, password });
    return [`User ${printable(user.username)} (${user.role}) added`];
  }
  if (sub === 'list') {
    // id, name, role, disabled (true|false), last login (UTC, ISO 8601; "-": never)
    return (await app.users.list(ctx)).map((u) =>
      [u.id, printable(u.username), u.role, u.disabled, u.lastLoginAt ?? '-'].join('\t'),
    );
  }
  const id = await app.users.idOf(ctx, name);
  switch (sub) {
    case 'set-role': {
      const user = await app.users.setRole(ctx, id, role);
      return [`User ${printable(user.username)} is now ${user.role}`];
    }
    case 'passwd': {
      const user = await app.users.setPassword(ctx, id, password);
      return [`Password of ${printable(user.username)} changed`];
    }
    case 'disable': {
      const user = await app.users.setDisabled(ctx, id, true);
      return [`User ${printable(user.username)} disabled; their sessions have ended`];
    }
    case 'enable': {
      const user = await app.users.setDisabled(ctx, id, false);
      return [`User ${printable(user.username)} enabled`];
    }
    default: {
      const count = await app.sessions.endSessionsOf(ctx, id);
      const username = printable((await app.users.get(id))?.username ?? name);
      // `pim mcp` connections hold no session row to count; they end at their next call all the same.
      return [`Ended ${sessions(count)} of ${username}, and every pim mcp connection of theirs`];
    }
  }
}
