import { useWorkspace, requireRight, type Actor, type RequestContext } from '../domain/context.js';
import { normalizeLanguage } from '../domain/languages/language.js';
import type { OpenWorkspace } from '../domain/workspaces/open-workspace.js';
import type { McpDeps } from './mcp-deps.js';
import type { Tool } from './tool.js';
import { toolFailure, toolSuccess, type ToolResult } from './tool-result.js';

/**
 * Runs one tool call in REST's order of checks: the open workspace (409), the right (403), the
 * arguments (400), then the service, which checks workspace and right again. Every outcome is a
 * result (errors with isError); the call is reported to the request monitor with REST's status.
 */
export async function callTool(
  deps: McpDeps,
  actor: Actor,
  workspace: () => Promise<OpenWorkspace | undefined>,
  tool: Tool,
  args: unknown,
): Promise<ToolResult> {
  const started = performance.now();
  let result: ToolResult;
  let status: number;
  try {
    const ctx: RequestContext = { actor, clock: deps.clock, workspace: await workspace() };
    if (tool.workspace) useWorkspace(ctx, tool.right);
    else requireRight(ctx, tool.right);
    const input = tool.validate(args ?? {}) as { lang?: string };
    if (input.lang !== undefined) ctx.language = normalizeLanguage(input.lang, 'lang');
    result = toolSuccess(await tool.run(ctx, input, deps));
    status = tool.successStatus ?? 200;
  } catch (error) {
    ({ result, status } = toolFailure(error, deps.logError ?? (() => undefined), tool.unreachable));
  }
  deps.onToolDone?.({
    method: 'MCP',
    path: tool.name,
    user: actor.username,
    status,
    at: Date.now(),
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  });
  return result;
}
