import { describe, expect, it } from 'vitest';
import { serverPerFile } from '../helpers/file-server.js';

/** The product, text and feature routes in the OpenAPI document. */

const file = serverPerFile();

describe('OpenAPI', () => {
  it('documents every product, text and feature route with tags, summary, schemas and errors', async () => {
    const res = await file.server.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as {
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[];
            summary?: string;
            responses: Record<string, unknown>;
            requestBody?: {
              content: Record<string, { examples?: Record<string, unknown>; example?: unknown }>;
            };
          }
        >
      >;
    };
    const expected: Array<[string, string[]]> = [
      ['/api/product', ['get', 'post']],
      ['/api/product/{id}', ['get', 'put', 'delete']],
      ['/api/product/{id}/variants', ['get', 'post']],
      ['/api/product/{id}/texts/short', ['get']],
      ['/api/product/{id}/texts/short/{lang}', ['get', 'put', 'delete']],
      ['/api/product/{id}/texts/long', ['get']],
      ['/api/product/{id}/texts/long/{lang}', ['get', 'put', 'delete']],
      ['/api/product/{id}/features', ['get']],
      ['/api/product/{id}/features/{ftidref}', ['get', 'put', 'delete']],
      ['/api/product/{id}/features/{ftidref}/{lang}', ['get', 'put', 'delete']],
    ];
    for (const [path, methods] of expected) {
      for (const method of methods) {
        const op = doc.paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(op!.tags!.length).toBeGreaterThan(0);
        expect(op!.summary).toBeTruthy();
        const errors =
          path === '/api/product' && method === 'get'
            ? ['400', '401', '403', '409']
            : ['400', '401', '403', '404', '409'];
        expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(errors));
        if (method !== 'get' && method !== 'delete') {
          const media = op!.requestBody!.content['application/json']!;
          // @fastify/swagger writes one example as `example`, several as `examples`
          const count = Object.keys(media.examples ?? {}).length + (media.example === undefined ? 0 : 1);
          expect(count, `${method} ${path} examples`).toBeGreaterThan(0);
        }
      }
    }
  });
});
