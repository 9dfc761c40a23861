import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, connectHttp, READ_TOOLS } from '../helpers/mcp.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ALL = [
  'list_workspaces',
  'open_workspace',
  'search_products',
  'get_product',
  'create_product',
  'update_product',
  'delete_product',
  'upsert_products',
  'set_texts',
  'delete_text',
  'set_feature',
  'delete_feature',
  'get_group_tree',
  'list_group_products',
  'create_group',
  'rename_group',
  'move_group',
  'delete_group',
  'assign_products',
  'unassign_product',
  'import_bmecat',
  'import_spreadsheet',
  'export_bmecat',
  'export_spreadsheet',
  'get_job',
  'get_catalog_header',
  'set_catalog_header',
  'mass_edit',
  'undo_mass_edit',
];
const READS = READ_TOOLS;
const DELETES = [
  'delete_product',
  'delete_text',
  'delete_feature',
  'delete_group',
  'unassign_product',
  'mass_edit',
];
const IDEMPOTENT_WRITES = [
  'update_product',
  'upsert_products',
  'set_texts',
  'set_feature',
  'rename_group',
  'move_group',
  'assign_products',
  'set_catalog_header',
];

interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: string; properties?: Record<string, unknown>; additionalProperties?: boolean };
  outputSchema?: { type: string; anyOf?: { properties?: Record<string, unknown>; title?: string }[] };
  annotations?: Record<string, unknown>;
}

let server: TestServer;
const tokens: Record<string, string> = {};
let openapi: unknown;

/** The first schema titled `title` anywhere in the OpenAPI description (inline or a component). */
function titled(title: string, node: unknown = openapi): { properties: Record<string, unknown> } | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if ((node as { title?: unknown }).title === title && 'properties' in node) {
    return node as { properties: Record<string, unknown> };
  }
  for (const child of Object.values(node)) {
    const found = titled(title, child);
    if (found) return found;
  }
  return undefined;
}

beforeAll(async () => {
  server = await startServer();
  await server.addUser('ed', 'EDITOR');
  await server.addUser('vi', 'VIEWER');
  tokens.admin = await server.login();
  tokens.ed = await server.login('ed', 'ed-password');
  tokens.vi = await server.login('vi', 'vi-password');
  openapi = (await server.request<never>('GET', '/api/openapi.json')).body;
});
afterAll(async () => server.stop());

async function list(token: string, era: (typeof ERAS)[number]): Promise<ListedTool[]> {
  const client: Client = await connectHttp(server.baseUrl, token, { era });
  try {
    return (await client.listTools()).tools as ListedTool[];
  } finally {
    await client.close();
  }
}

describe.each(ERAS)('tools/list over HTTP (%s protocol era)', (era) => {
  it('offers an administrator all tools, in order, each fully described', async () => {
    const tools = await list(tokens.admin!, era);
    expect(tools.map((t) => t.name)).toEqual(ALL);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // The tool's result, or a tool error (clients on the 1.x SDK check errors against it too).
      expect(tool.outputSchema?.anyOf, tool.name).toHaveLength(2);
      expect(tool.outputSchema!.anyOf![1], tool.name).toMatchObject({
        title: 'ToolError',
        required: ['error', 'code', 'status'],
        additionalProperties: false,
      });
      expect(tool.annotations).toMatchObject({
        readOnlyHint: READS.includes(tool.name),
        destructiveHint: DELETES.includes(tool.name),
        idempotentHint: READS.includes(tool.name) || IDEMPOTENT_WRITES.includes(tool.name),
        openWorldHint: false,
      });
    }
  });

  it('offers an editor every tool and a viewer only the read tools', async () => {
    expect((await list(tokens.ed!, era)).map((t) => t.name)).toEqual(ALL);
    expect((await list(tokens.vi!, era)).map((t) => t.name)).toEqual(READS);
  });
});

describe('tool schemas come from the REST schemas', () => {
  it('describes products, groups and features with the very schemas of the OpenAPI description', async () => {
    const tools = Object.fromEntries((await list(tokens.admin!, 'modern')).map((t) => [t.name, t]));
    /** The schema of a tool's result: the first of its output schema's two forms. */
    const result = (name: string) => tools[name]!.outputSchema!.anyOf![0]!;
    const schemas = new Proxy({} as Record<string, { properties: Record<string, unknown> }>, {
      get: (_target, name: string) => titled(name),
    });
    const create = tools.create_product!.inputSchema.properties!;
    for (const [field, schema] of Object.entries(schemas.CreateProductRequest!.properties)) {
      expect(create[field], `create_product.${field}`).toEqual(schema);
    }
    const update = tools.update_product!.inputSchema.properties!;
    for (const [field, schema] of Object.entries(schemas.UpdateProductRequest!.properties)) {
      expect(update[field], `update_product.${field}`).toEqual(schema);
    }
    expect(tools.create_group!.inputSchema.properties).toEqual(schemas.CreateGroupRequest!.properties);
    expect(result('create_group').properties).toEqual(schemas.ProductGroupDto!.properties);
    expect(result('set_feature').properties).toEqual(schemas.FeatureDto!.properties);
    // The error form says what REST's error envelope says.
    const toolError = tools.get_product!.outputSchema!.anyOf![1]!.properties!;
    const notFound = (
      openapi as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }
    ).paths['/api/product/{id}']!.get!.responses['404'] as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    const envelope = notFound.content['application/json']!.schema.properties;
    expect(toolError.error).toEqual(envelope.error);
    expect(toolError.code).toEqual(envelope.code);
    const sheet = result('get_product').properties!;
    expect((sheet.product as { properties: unknown }).properties).toEqual(schemas.ProductDto!.properties);
    const page = result('search_products').properties!;
    expect((page.items as { items: { properties: unknown } }).items.properties).toEqual(
      schemas.ProductDto!.properties,
    );
  });
});
