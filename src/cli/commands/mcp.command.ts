import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { markRunning } from '../../app/running-processes.js';
import { Application } from '../../app/application.js';
import type { SessionGeneration } from '../../domain/users/user.service.js';
import { createPimMcpServer } from '../../mcp/mcp-server.js';
import { StdioLineGuard } from '../../mcp/stdio-line-guard.js';
import { TOOL_NAMES, unknownToolNames, withheldTools } from '../../mcp/tools.js';
import { UsageError } from '../cli-error.js';
import type { CommandInput } from '../command-input.js';

export const PASSWORD_VARIABLE = 'PIM_PASSWORD';

function toolList(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = unknownToolNames(names);
  if (unknown.length > 0) {
    throw new UsageError(`unknown tool '${unknown[0]}' in --tools; the tools are: ${TOOL_NAMES.join(', ')}`);
  }
  if (names.length === 0) throw new UsageError('--tools needs at least one tool name');
  return names;
}

/**
 * `pim mcp`: the agent interface over stdio, as the user named, on the data folder. The
 * credentials are checked before any protocol traffic (stdout belongs to the protocol, so
 * every message goes to stderr). The process is the session: it ends when stdin closes, and
 * it stops serving once the user's sessions are ended (`pim user logout`, disable).
 */
export async function mcpCommand({ dataDir, values }: CommandInput): Promise<number> {
  const username = values.user;
  if (typeof username !== 'string' || username === '') throw new UsageError('pim mcp needs --user NAME');
  const names = toolList(values.tools);
  const password = process.env[PASSWORD_VARIABLE];
  if (!password) {
    console.error(`pim: set ${PASSWORD_VARIABLE} to the password of ${username} (stdin is the MCP channel)`);
    return 1;
  }
  const app = await Application.open({ dataDir });
  let user;
  let loggedInAt: SessionGeneration;
  try {
    user = await app.sessions.checkCredentials(username, password, { address: '127.0.0.1' });
    loggedInAt = await app.users.sessionGeneration(user.id);
  } catch (error) {
    await app.stop();
    throw error;
  }
  const selection = { readOnly: values['read-only'] === true, names };
  const withheld = withheldTools(selection, user);
  if (withheld.length > 0) console.error(`pim mcp: --tools names tools not offered: ${withheld.join(', ')}`);
  const release = markRunning(dataDir, 'mcp');
  const guard = new StdioLineGuard((message) => {
    wire.send(message).catch((error: Error) => console.error(`pim mcp: ${error.message}`));
  });
  const wire = new StdioServerTransport(process.stdin.pipe(guard), process.stdout);
  const handle = serveStdio(
    () =>
      createPimMcpServer(
        {
          clock: app.clock,
          workspaces: app.workspaces,
          jobs: app.jobs,
          logError: (error) => console.error('pim mcp: tool call failed:', error),
        },
        {
          actor: user,
          // The process holds no token: the user is read again before every request, and an end
          // of the user's sessions (logout of all, disable) ends this connection too.
          currentActor: () => app.users.current(user.id, loggedInAt),
          selection,
          // Whatever the application has open now: `pim start` may open another workspace.
          workspace: () => app.workspaces.follow(),
        },
      ),
    { legacy: 'serve', transport: wire, onerror: (error) => console.error(`pim mcp: ${error.message}`) },
  );
  await new Promise<void>((resolve) => {
    process.stdin.once('close', resolve);
    process.stdin.once('end', resolve);
  });
  await handle.close();
  await app.stop();
  release();
  return 0;
}
