import type { Actor } from '../domain/context.js';
import { bulkTools } from './bulk.tools.js';
import { catalogHeaderTools } from './catalog-header.tools.js';
import { groupTools } from './group.tools.js';
import { jobTools } from './job.tools.js';
import { massEditTools } from './mass-edit.tools.js';
import type { ToolSelection } from './mcp-deps.js';
import { productTools } from './product.tools.js';
import { textFeatureTools } from './text-feature.tools.js';
import type { Tool } from './tool.js';
import { workspaceTools } from './workspace.tools.js';

/** Every tool, in the order tools/list shows them. Names are part of the interface. */
export const ALL_TOOLS: readonly Tool[] = [
  ...workspaceTools,
  ...productTools,
  ...bulkTools,
  ...textFeatureTools,
  ...groupTools,
  ...jobTools,
  ...catalogHeaderTools,
  ...massEditTools,
];

export const TOOL_NAMES: readonly string[] = ALL_TOOLS.map((tool) => tool.name);

const KNOWN = new Set(TOOL_NAMES);

/** The names in `names` that are no tool's (for the CLI's --tools). */
export function unknownToolNames(names: readonly string[]): string[] {
  return names.filter((name) => !KNOWN.has(name));
}

/** The tools a connection offers, before rights: all, or the read tools, or those named. */
export function selectedTools(selection: ToolSelection = {}): Tool[] {
  const names = selection.names && new Set(selection.names);
  return ALL_TOOLS.filter(
    (tool) => (!selection.readOnly || tool.effect === 'read') && (!names || names.has(tool.name)),
  );
}

/** Whether the actor's role holds the right the tool needs (tools/list shows only those). */
export function mayCall(actor: Actor, tool: Tool): boolean {
  return actor.rights.includes(tool.right);
}

/**
 * The tools `names` asks for that this connection will not offer the actor, each with why
 * (`--read-only`, or the role's missing right), so that `pim mcp` can say so instead of an
 * agent finding them missing: the role's share is as of now (a role change applies at the next
 * call).
 */
export function withheldTools(selection: ToolSelection, actor: Actor): string[] {
  return ALL_TOOLS.filter((tool) => selection.names?.includes(tool.name)).flatMap((tool) => {
    if (selection.readOnly && tool.effect !== 'read') return [`${tool.name} (--read-only)`];
    if (!mayCall(actor, tool)) return [`${tool.name} (role ${actor.role} lacks the right '${tool.right}')`];
    return [];
  });
}
