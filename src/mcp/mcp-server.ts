import {
  ProtocolError,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  Server,
  type Tool as ListedTool,
} from '@modelcontextprotocol/server';
import type { Actor, RequestContext } from '../domain/context.js';
import type { OpenWorkspace } from '../domain/workspaces/open-workspace.js';
import type { McpDeps, ToolSelection } from './mcp-deps.js';
import { listProductResources, productResourceTemplate, readProductResource } from './product.resources.js';
import { callTool } from './tool-call.js';
import { ToolErrorContent, toolFailure, type ToolResult } from './tool-result.js';
import { mayCall, selectedTools } from './tools.js';
import type { Tool } from './tool.js';

/** Who is connected and what the connection offers. */
export interface McpSession {
  actor: Actor;
  /**
   * The actor as it is now, read before every request (stdio: the process holds no token, so a
   * disabled user or a changed role must be noticed here). HTTP checks the token per request.
   */
  currentActor?: () => Promise<Actor>;
  selection?: ToolSelection;
  /**
   * The open workspace at the time of a call. HTTP: the application's; stdio: the one the data
   * folder says the application has open (followed on every call).
   */
  workspace(): Promise<OpenWorkspace | undefined>;
  /**
   * Told the result of each tools/call before the SDK frames it (HTTP: the fast path compares the
   * SDK's answer with what it would write for the same result).
   */
  onToolResult?: (result: ToolResult) => void;
}

/** The current revision, and the 2025-era ones most deployed clients speak (the SDK's default list). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
const PROTOCOL_VERSIONS = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

export const SERVER_INFO = { name: 'pim', title: 'pim product information management', version: '0.1.0' };

const INSTRUCTIONS =
  'pim holds product catalogues (BMEcat model): products and their variants, short and long texts per ' +
  'language (ISO 639-2 codes such as deu, eng), features addressed by FT_IDREF with values per language, and ' +
  'a tree of product groups. Every catalogue tool works on the workspace the application has open ' +
  '(list_workspaces, open_workspace). Find products with search_products, read one whole with get_product, ' +
  'change it with update_product (fields, texts, features, group in one call). Ids are database ids. Errors ' +
  'come back as tool results with isError and {error, code, status}, status as the REST interface answers.';

/** The JSON of a tool in tools/list, built once per tool (symbols of TypeBox drop out). */
const listings = new WeakMap<Tool, ListedTool>();
function listing(tool: Tool): ListedTool {
  let entry = listings.get(tool);
  if (!entry) {
    entry = JSON.parse(
      JSON.stringify({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        // The tool's result, or a tool error: clients built on the 1.x SDK (the MCP Inspector,
        // many agents) check structuredContent against outputSchema even when isError is set.
        outputSchema: { type: 'object', anyOf: [tool.output, ToolErrorContent] },
        annotations: { title: tool.title, ...tool.annotations },
      }),
    ) as ListedTool;
    listings.set(tool, entry);
  }
  return entry;
}

/**
 * A server for one connection (stdio) or one request (HTTP): the low-level SDK server with
 * pim's own tools/list and tools/call, so that arguments are checked by REST's validator and
 * answered in REST's sentences, and only the tools the user's role may call are listed.
 */
export function createPimMcpServer(deps: McpDeps, session: McpSession): Server {
  const offered = selectedTools(session.selection);
  const offeredByName = new Map(offered.map((tool) => [tool.name, tool]));
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: {} },
    instructions: INSTRUCTIONS,
    supportedProtocolVersions: PROTOCOL_VERSIONS,
  });
  const actor = session.currentActor ?? (async () => session.actor);
  const context = async (): Promise<RequestContext> => ({
    actor: await actor(),
    clock: deps.clock,
    workspace: await session.workspace(),
  });

  server.setRequestHandler('tools/list', async () => {
    const now = await actor().catch(() => undefined);
    return { tools: now ? offered.filter((tool) => mayCall(now, tool)).map(listing) : [] };
  });
  server.setRequestHandler('tools/call', async (request) => {
    const tool = offeredByName.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    const result = await actor().then(
      (current) => callTool(deps, current, session.workspace, tool, request.params.arguments),
      (error: unknown) => toolFailure(error, deps.logError ?? (() => undefined), tool.unreachable).result,
    );
    session.onToolResult?.(result);
    return result;
  });
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [productResourceTemplate],
  }));
  server.setRequestHandler('resources/list', async (request) =>
    listProductResources(await context(), request.params?.cursor),
  );
  server.setRequestHandler('resources/read', async (request) =>
    readProductResource(await context(), request.params.uri),
  );
  return server;
}
