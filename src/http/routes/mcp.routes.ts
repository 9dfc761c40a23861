import { createMcpHandler, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import { originValidation } from '@modelcontextprotocol/fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedUser } from '../../domain/sessions/authenticated-user.js';
import type { McpDeps } from '../../mcp/mcp-deps.js';
import { createPimMcpServer } from '../../mcp/mcp-server.js';
import { ToolCallFastPath } from '../../mcp/tool-call-fast-path.js';
import type { ToolResult } from '../../mcp/tool-result.js';
import type { PimApp } from '../pim-app.js';
import { hostName } from '../edge-guards.js';
import type { HttpDeps } from '../http-deps.js';
import { MCP_ENDPOINT } from '../route-access.js';

export const MCP_PATH = '/mcp';

/** What the route hands the SDK's per-request server factory through authInfo.extra. */
// A type, not an interface: the SDK's extra is a Record<string, unknown>.
type RequestExtra = {
  user: AuthenticatedUser;
  /** Told the tools/call result the SDK is about to frame (the fast path learns from both). */
  onToolResult: (result: ToolResult) => void;
};

/** The SDK's answer to GET and DELETE here (stateless: no event stream, no session to end). */
const METHOD_REFUSED = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };

/**
 * JSON-RPC batches are refused: MCP has none since 2025-06-18, and one small request naming a
 * large product sheet a hundred times made the server build an answer of hundreds of megabytes
 * at once (a sheet may hold texts of 1,000,000 characters; docs/agent-interface.md).
 */
const BATCH_REFUSED = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message:
      'Invalid Request: pim takes one JSON-RPC message per request, not a batch (MCP has none since 2025-06-18)',
  },
  id: null,
};

/**
 * Headers that stay with this hop: the connection's own (the body was read by Fastify) and the
 * credentials (checked already; the handler gets the user). The MCP ones (Mcp-Method, Mcp-Name,
 * Mcp-Protocol-Version, Mcp-Session-Id, ...) and the rest go to the handler.
 */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'authorization',
  'cookie',
]);

/**
 * A foreign Origin on a route that demands the same origin (the MCP endpoint) gets 403 with the
 * JSON-RPC error body the MCP specification describes, before the token is looked at. The
 * server's own origin (its Host) and loopback origins pass, as do clients that send none.
 *
 * A global hook, not the route's own: a route's onRequest hooks run after every global one, the
 * token check included. So that it costs the other routes nothing, a request without Origin (every
 * client but a browser) passes on one header read, without a promise or a look at the route.
 */
export function refuseForeignOrigin(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (request.headers.origin === undefined || request.routeOptions.config.sameOriginOnly !== true) {
    return done();
  }
  const own = hostName(request.headers.host ?? '');
  // Once it has answered 403, Fastify runs no further hook.
  void originValidation([...localhostAllowedOrigins(), own])(request, reply).then(() => done(), done);
}

/**
 * The agent interface over Streamable HTTP: the SDK's per-request handler (protocol revision
 * 2026-07-28, and stateless serving for 2025-era clients) behind pim's own token check (the auth
 * hook, with REST's 401 rules). Each request gets a server for its user: tools/list shows the
 * tools the user's role may call. Not part of the OpenAPI description (it is not REST).
 */
export function mcpRoutes(app: PimApp, deps: HttpDeps): void {
  const mcpDeps: McpDeps = {
    clock: deps.clock,
    workspaces: deps.workspaces,
    jobs: deps.jobs,
    onToolDone: deps.onRequestDone,
    logError: (error) => app.log.error({ err: error }, 'MCP tool call failed'),
  };
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const { user, onToolResult } = authInfo?.extra as RequestExtra;
      // The auth hook has followed the data folder's open workspace for this request.
      return createPimMcpServer(mcpDeps, { actor: user, workspace, onToolResult });
    },
    { onerror: (error) => app.log.warn({ err: error }, 'MCP request refused') },
  );
  app.addHook('onClose', async () => handler.close());
  const fastPathSwitch = deps.mcpFastPath;
  const fastPath = fastPathSwitch?.enabled === false ? undefined : new ToolCallFastPath(mcpDeps);
  const workspace = async () => deps.workspaces.current();

  app.route({
    // PUT and PATCH too, so that they get the SDK's own 405 (Allow: POST) as GET and DELETE do,
    // not the 405 of an unknown method, whose Allow would list this route's other methods.
    method: ['POST', 'GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    config: { ...MCP_ENDPOINT, jsonRpcErrors: true },
    schema: { hide: true },
    handler: async (request, reply) => {
      if (request.method === 'PUT' || request.method === 'PATCH') {
        return reply.code(405).header('allow', 'POST').send(METHOD_REFUSED);
      }
      if (Array.isArray(request.body)) return reply.code(400).send(BATCH_REFUSED);
      const user = request.user!;
      const eligible = fastPath !== undefined && request.method === 'POST';
      if (eligible) {
        const answer = await fastPath.answer(request.headers, request.body, user, workspace);
        if (answer !== undefined) {
          if (fastPathSwitch) fastPathSwitch.answered++;
          return reply.headers(answer.headers).send(answer.body);
        }
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (HOP_HEADERS.has(name) || value === undefined) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const webRequest = new Request(`http://localhost${MCP_PATH}`, { method: request.method, headers });
      let toolResult: ToolResult | undefined;
      const extra: RequestExtra = { user, onToolResult: (result) => void (toolResult = result) };
      const response = await handler.fetch(webRequest, {
        authInfo: { token: user.tokenHash, clientId: user.username, scopes: [...user.rights], extra },
        parsedBody: request.body,
      });
      reply.code(response.status);
      const sent: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        sent[name] = value;
        reply.header(name, value);
      });
      // A JSON answer is read whole (cheaper than piping a web stream into Node's), and so is the
      // one event answering a tools/call the fast path learns from; other event streams (SSE) are
      // passed through as they come.
      const type = response.headers.get('content-type') ?? '';
      const rewrite = fastPathSwitch?.rewriteSdkAnswer;
      if (
        type.startsWith('application/json') ||
        (eligible && fastPath.wouldLearn(request.headers, request.body)) ||
        rewrite !== undefined
      ) {
        let text = await response.text();
        if (rewrite) text = rewrite(text, request.headers);
        if (eligible) {
          const answer = { status: response.status, headers: sent, body: text };
          if (fastPath.learn(request.headers, request.body, answer, toolResult) === 'differs') {
            fastPathSwitch!.refused++;
            app.log.warn(
              { tool: (request.body as { params: { name: string } }).params.name },
              "MCP fast path off for a request shape: the SDK's answer is not what it would write",
            );
          }
        }
        return reply.send(text);
      }
      return reply.send(response.body ?? '');
    },
  });
}
