import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../main.js';
import { withApplication } from './with-app.js';

async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

export async function userCommand({ dataDir, positionals, values, stdin, out }: CommandInput): Promise<void> {
  const [sub, name, ...extra] = positionals;
  if (sub === 'list') {
    if (name) throw new UsageError('pim user list takes no arguments');
    await withApplication(dataDir, async (app) => {
      for (const user of await app.users.list(app.ownerContext()))
        out(`${user.id}\t${user.username}\t${user.role}`);
    });
    return;
  }
  if (!name) throw new UsageError('pim user add needs a user name');
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (typeof values.role !== 'string') throw new UsageError('pim user add needs --role ADMIN|EDITOR|VIEWER');
  if (!values['password-stdin'])
    throw new UsageError('pim user add needs --password-stdin (the password is read from standard input)');
  const password = await readFirstLine(stdin);
  await withApplication(dataDir, async (app) => {
    const user = await app.users.add(app.ownerContext(), {
      username: name,
      role: values.role as string,
      password,
    });
    out(`User ${user.username} (${user.role}) added`);
  });
}
