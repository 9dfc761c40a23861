import type { Actor } from '../domain/context.js';
import { bulkTools } from './bulk.tools.js';
import { groupTools } from './group.tools.js';
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
