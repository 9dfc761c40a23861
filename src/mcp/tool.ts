import type { Static, TSchema } from '@sinclair/typebox';
import type { RequestContext } from '../domain/context.js';
import type { McpDeps } from './mcp-deps.js';
import type { Right } from '../domain/users/roles.js';
import { documentValidator } from '../domain/validation/schema-validation.js';
import type { EncodedJson } from './tool-result.js';
import type { DomainError } from '../domain/errors.js';

/** What a tool does to the catalogue: decides its annotations and whether --read-only offers it. */
export type ToolEffect = 'read' | 'write' | 'idempotent-write' | 'delete';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/**
 * One agent tool: a thin adapter over one domain service call, described by the same TypeBox
 * schemas as the REST route (input validated with REST's validator and sentences).
 */
export interface ToolDefinition<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string;
  title: string;
  /** What it does, what it returns, its limits: an agent decides from this alone. */
  description: string;
  input: I;
  output: O;
  effect: ToolEffect;
  /** The right REST demands for the same operation; users without it do not see the tool. */
  right: Right;
  /** Works on the open workspace (NO_WORKSPACE_OPEN before FORBIDDEN, as REST checks). */
  workspace: boolean;
  /** The status REST answers on success (201 for creations): what the request monitor shows. */
  successStatus?: number;
  /**
   * The error instead of DATABASE_UNAVAILABLE when the database cannot be reached at any step of
   * the call, the user's check included: where REST's route declares one (http/route-access.ts).
   */
  unreachable?: (cause: unknown) => DomainError;
  run(ctx: RequestContext, args: Static<I>, deps: McpDeps): Promise<Static<O> | EncodedJson<Static<O>>>;
}

/** A tool definition whose input validator is compiled once. */
export interface Tool extends ToolDefinition {
  annotations: ToolAnnotations;
  validate(args: unknown): unknown;
}

export function defineTool<I extends TSchema, O extends TSchema>(definition: ToolDefinition<I, O>): Tool {
  const effect = definition.effect;
  return {
    ...(definition as unknown as ToolDefinition),
    annotations: {
      readOnlyHint: effect === 'read',
      destructiveHint: effect === 'delete',
      idempotentHint: effect === 'read' || effect === 'idempotent-write',
      openWorldHint: false,
    },
    validate: documentValidator(definition.input),
  };
}
