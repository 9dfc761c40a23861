import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Actor } from '../domain/context.js';
import type { OpenWorkspace } from '../domain/workspaces/open-workspace.js';
import type { McpDeps } from './mcp-deps.js';
import { MODERN_PROTOCOL_VERSION, SERVER_INFO } from './mcp-server.js';
import { callTool } from './tool-call.js';
import { encodedStructuredContent, type ToolResult } from './tool-result.js';
import { ALL_TOOLS } from './tools.js';
import type { Tool } from './tool.js';

/** The headers of an MCP request over HTTP that the SDK's checks read, as Node gives them. */
export type McpRequestHeaders = Record<string, string | string[] | undefined>;

/** A tools/call whose shape the fast path knows how to answer. */
interface Candidate {
  id: string | number;
  tool: Tool;
  args: unknown;
  /**
   * 'modern': the current revision, answered as JSON; 'legacy': a 2025-era revision without
   * envelope, served statelessly by the SDK and answered as one server-sent event.
   */
  era: 'modern' | 'legacy';
  /**
   * The shape: everything the SDK's entry checks read besides the id and the arguments, and the
   * tool, so that each tool's form of result (JSON from the database, or an object) is compared
   * with the SDK's answer before the fast path writes it.
   */
  key: string;
}

/** An answer of the fast path: status 200 with these headers and body. */
export interface FastAnswer {
  headers: Record<string, string>;
  body: string;
}

/** The SDK's answer to a request as pim sends it on: status, headers (lower-case names), body. */
export interface SdkAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the fast path made of an answer of the SDK: 'learnt' (it answers that shape from now on),
 * 'differs' (the SDK wrote other bytes than it would: it stays off for that shape) or 'none' (not
 * a tool result of a candidate shape, or a shape it already knows).
 */
export type Lesson = 'learnt' | 'differs' | 'none';

const JSON_HEADERS = { 'content-type': 'application/json' };
/** The headers of the SDK's event-stream answer to a 2025-era request (Connection is Node's). */
const EVENT_STREAM_HEADERS = {
  'cache-control': 'no-cache, no-transform',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
};
/** Set by Node for the connection, not by the SDK's answer: left out of the comparison. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive']);
const LEGACY_VERSIONS = new Set(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== MODERN_PROTOCOL_VERSION));

/** How many distinct shapes are remembered; clients send the same one on every call. */
const MAX_KNOWN_SHAPES = 1_000;

/** The SDK's stamp on every result of this revision: the server's identity. */
const STAMP = JSON.stringify({ 'io.modelcontextprotocol/serverInfo': SERVER_INFO });

const TOOLS_BY_NAME = new Map(ALL_TOOLS.map((tool) => [tool.name, tool]));
const BODY_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** A header as Node gives it (OWS already stripped): compared and keyed exactly, never normalised. */
function header(headers: McpRequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function sameHeaders(ours: Record<string, string>, sdk: Record<string, string>): boolean {
  const theirs = Object.entries(sdk).filter(([name]) => !HOP_BY_HOP.has(name));
  return theirs.length === Object.keys(ours).length && theirs.every(([name, value]) => ours[name] === value);
}

/**
 * tools/call over HTTP without the SDK's per-request machinery (a server instance, a transport,
 * web Request and Response objects, a dozen schema checks): the agent's hot path, measured in the
 * benchmark beside REST's GET by id (docs/agent-interface.md, "The tools/call fast path").
 *
 * It never decides anything the SDK has not decided: a request is answered here only when the SDK
 * has already answered a request of the same shape (same protocol headers and `_meta` envelope, a
 * known tool named alike in Mcp-Name, where sent, and the body, arguments an object) with a
 * result. Every other request, and the first of each shape, goes to the SDK, whose answers are
 * learnt. Within that shape the SDK's entry checks pass or fail alike, so the answer is the SDK's:
 * the tool's result through the same callTool, as JSON stamped as the SDK stamps results of the
 * current revision, or for 2025-era clients (most deployed ones) as the one event of its
 * stateless answer.
 *
 * That framing is the SDK's wire format written by hand (the SDK is pinned in package.json for
 * it). So a shape is learnt only when the SDK's answer, headers and body, is byte for byte what
 * this class writes for the same tool result; on any difference (an SDK that frames, orders or
 * stamps otherwise) the shape stays with the SDK.
 * test/mcp/fast-path.test.ts compares both paths on random requests, and makes the SDK's answer
 * differ for one shape to see the fast path stay off.
 */
export class ToolCallFastPath {
  /** Shapes the SDK answered with a tool result: true when its answer was ours byte for byte. */
  private readonly shapes = new Map<string, boolean>();

  constructor(private readonly deps: McpDeps) {}

  /** The request as a candidate, or undefined when the SDK must see it (any unusual shape). */
  private candidate(headers: McpRequestHeaders, body: unknown): Candidate | undefined {
    if (!isPlainObject(body) || !onlyKeys(body, BODY_KEYS)) return undefined;
    if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
    const id = body.id;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
    const params = body.params;
    if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS)) return undefined;
    const name = params.name;
    const tool = typeof name === 'string' ? TOOLS_BY_NAME.get(name) : undefined;
    if (!tool) return undefined;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
    if (headers['mcp-session-id'] !== undefined || headers['last-event-id'] !== undefined) return undefined;
    const version = header(headers, 'mcp-protocol-version');
    const mcpName = header(headers, 'mcp-name');
    let era: Candidate['era'];
    if (version === MODERN_PROTOCOL_VERSION) {
      // The current revision: the envelope in _meta, the tool named in Mcp-Name.
      if (!isPlainObject(params._meta) || mcpName !== name) return undefined;
      era = 'modern';
    } else if (version !== undefined && LEGACY_VERSIONS.has(version)) {
      // 2025-era: no _meta at all (a progress token would ask for notifications).
      if (params._meta !== undefined || (mcpName !== undefined && mcpName !== name)) return undefined;
      era = 'legacy';
    } else {
      return undefined;
    }
    const key = JSON.stringify([
      tool.name,
      version,
      header(headers, 'mcp-method') ?? null,
      mcpName !== undefined,
      header(headers, 'content-type') ?? null,
      header(headers, 'accept') ?? null,
      params._meta ?? null,
    ]);
    return { id, tool, args: params.arguments, era, key };
  }

  /** The answer (status 200), or undefined: then the SDK answers, and `learn` is told how. */
  async answer(
    headers: McpRequestHeaders,
    body: unknown,
    actor: Actor,
    workspace: () => Promise<OpenWorkspace | undefined>,
  ): Promise<FastAnswer | undefined> {
    const candidate = this.candidate(headers, body);
    if (!candidate || this.shapes.get(candidate.key) !== true) return undefined;
    const result = await callTool(this.deps, actor, workspace, candidate.tool, candidate.args);
    return this.write(candidate, result);
  }

  /** The order and form of the SDK's answer, with the database's JSON spliced in unparsed. */
  private write(candidate: Candidate, result: ToolResult): FastAnswer {
    const encoded = encodedStructuredContent(result);
    const fields =
      encoded === undefined
        ? JSON.stringify(result).slice(1, -1)
        : `"content":${JSON.stringify(result.content)},"structuredContent":${encoded}`;
    const id = JSON.stringify(candidate.id);
    if (candidate.era === 'legacy') {
      const message = `{"result":{${fields}},"jsonrpc":"2.0","id":${id}}`;
      return { headers: EVENT_STREAM_HEADERS, body: `event: message\ndata: ${message}\n\n` };
    }
    const stamp = `"resultType":"complete","_meta":${STAMP}`;
    return { headers: JSON_HEADERS, body: `{"result":{${fields},${stamp}},"jsonrpc":"2.0","id":${id}}` };
  }

  /** Whether the SDK's answer to this request should be read whole and learnt from. */
  wouldLearn(headers: McpRequestHeaders, body: unknown): boolean {
    const candidate = this.candidate(headers, body);
    return candidate !== undefined && !this.shapes.has(candidate.key);
  }

  /**
   * Judges the SDK's answer to a request of a shape not seen yet, given the tool result the SDK
   * framed (undefined when no tool ran: the SDK refused the request before). A shape whose tool
   * ran is remembered either way: answered here from now on when the SDK's answer is what `write`
   * makes of the same result (status 200, headers, body byte for byte), else left to the SDK.
   */
  learn(headers: McpRequestHeaders, body: unknown, sdk: SdkAnswer, result: ToolResult | undefined): Lesson {
    if (result === undefined) return 'none';
    const candidate = this.candidate(headers, body);
    if (!candidate || this.shapes.has(candidate.key)) return 'none';
    const ours = this.write(candidate, result);
    const same = sdk.status === 200 && ours.body === sdk.body && sameHeaders(ours.headers, sdk.headers);
    if (this.shapes.size >= MAX_KNOWN_SHAPES) this.shapes.clear();
    this.shapes.set(candidate.key, same);
    return same ? 'learnt' : 'differs';
  }
}
