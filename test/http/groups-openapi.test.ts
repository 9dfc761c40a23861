import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/** The group routes in the OpenAPI document. */

const file = serverPerFile();

describe('OpenAPI', () => {
  it('describes every group route with tag, summary, description, schemas and examples', async () => {
    const res = await file.server.request('GET', '/api/openapi.json');
    const doc = JSON.parse(res.text) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const routes: [string, string, boolean][] = [
      ['/api/group', 'get', false],
      ['/api/group', 'post', true],
      ['/api/group/tree', 'get', false],
      ['/api/group/{id}', 'get', false],
      ['/api/group/{id}', 'put', true],
      ['/api/group/{id}', 'delete', false],
      ['/api/group/{id}/move', 'post', true],
      ['/api/group/{id}/products', 'get', false],
      ['/api/group/{id}/products', 'post', true],
      ['/api/group/{id}/products/{productId}', 'delete', false],
    ];
    for (const [path, method, hasBody] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op?.tags).toEqual(['group']);
      expect(op?.summary).toEqual(expect.any(String));
      expect(String(op?.description).length).toBeGreaterThan(20);
      const responses = op?.responses as Record<string, unknown>;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403', '409', '500']));
      if (hasBody) {
        const content = (op?.requestBody as { content: Record<string, Record<string, unknown>> }).content;
        const json = content['application/json'];
        expect(json?.examples ?? json?.example, `${method} ${path}`).toBeDefined();
      }
    }
    expect(JSON.stringify(doc.paths['/api/group/{id}/move'])).toContain('descendants');
  });
});
