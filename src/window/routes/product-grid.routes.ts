import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.js';
import {
  countProductGrid,
  listProductGrid,
  type ProductGridPage,
} from '../../domain/products/product-grid.service.js';
import {
  GridCountQuery,
  GridRowsQuery,
  type GridCountFilter,
  type GridRowsFilter,
} from '../../domain/products/product-grid.schemas.js';
import type { GridCount, GridQuery, GridRowsPage } from '../catalogue-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import { windowContext } from '../window-context.js';

// The contract the front end imports and the domain's shapes are one: these fail to compile otherwise.
const _pageMatches: (page: ProductGridPage) => GridRowsPage = (page) => page;
const _queryMatches: (query: GridRowsFilter) => GridQuery = (query) => query;
void _pageMatches;
void _queryMatches;

/** The product grid: a page of rows and the number of matches (docs/catalogue-grid.md). */
export function productGridRoutes(app: FastifyInstance, deps: WindowDeps): void {
  app.get<{ Querystring: GridRowsFilter }>(
    '/ui/api/products/rows',
    { schema: { querystring: GridRowsQuery } },
    async (request) => ok(await listProductGrid(windowContext(request, deps), request.query)),
  );

  app.get<{ Querystring: GridCountFilter }>(
    '/ui/api/products/count',
    { schema: { querystring: GridCountQuery } },
    async (request) => {
      const answer: GridCount = {
        count: await countProductGrid(windowContext(request, deps), request.query),
      };
      return ok(answer);
    },
  );
}
