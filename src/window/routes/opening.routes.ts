import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '../../http/envelope.js';
import type { GridSort, GridSortDirection } from '../catalogue-api.types.js';
import type { GridPreferences } from '../grid-preferences.schemas.js';
import type { OpeningDto, OpeningPart } from '../opening-api.types.js';
import type { WindowDeps } from '../window-deps.js';
import type { WindowEvents } from '../window-events.js';
import type { WindowStatus } from '../window-status.js';

const OpeningQuery = Type.Object(
  {
    /** The grid's parameters as the catalogue's address gives them (sort and dir only when it names them). */
    grid: Type.Optional(Type.String({ maxLength: 4000 })),
    /** The rows of the grid's first block (the front end's block size). */
    block: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
type OpeningQuery = { grid?: string; block?: number };

/** The headers a part is asked with: the caller's session, Host and window header. */
function forwarded(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = { 'x-pim-window': '1' };
  for (const name of ['cookie', 'host'] as const) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * The window's first screen in one request: the session, the status, the user's grid columns,
 * and on the catalogue the count, the first rows and the tree's top level. The window's opening
 * asked for these one round after another as each view mounted (session, then status and columns,
 * then rows): here they are all asked for at once, while the browser still evaluates the bundle.
 *
 * Each part is its own endpoint's answer, asked for in process (inject) with the caller's
 * session: the same hooks, rights, validation and envelope, nothing answered twice in code. A
 * part that is refused is passed on as refused; the window then asks that endpoint itself.
 */
export function openingRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get<{ Querystring: OpeningQuery }>(
    '/ui/api/opening',
    { config: { windowPublic: true }, schema: { querystring: OpeningQuery } },
    async (request) => {
      const part = async (path: string): Promise<OpeningPart> => {
        const answer = await app.inject({
          method: 'GET',
          url: `/ui/api${path}`,
          headers: forwarded(request),
          remoteAddress: request.socket.remoteAddress,
        });
        return answer.json<OpeningPart>();
      };
      const session = await part('/session');
      if (!session.success || !(session.data as { user?: unknown } | undefined)?.user) {
        return ok<OpeningDto>({ session });
      }
      // Before the catalogue's parts: they are at least as new as this counter.
      const catalogue = (await events.catalogueVersion()) ?? null;
      const status = await part('/status');
      const preferences = await part('/preferences/grid');
      const opening: OpeningDto = { session, status, preferences, catalogue };
      const workspace = status.success ? (status.data as WindowStatus).workspace : null;
      const { grid, block = 100 } = request.query;
      if (grid === undefined || !workspace) return ok(opening);
      const params = new URLSearchParams(grid);
      if (!params.has('sort')) {
        // As the catalogue decides it: the address's sort wins, else the user's saved one.
        const saved = preferences.success
          ? (preferences.data as { value: GridPreferences | null }).value?.sort
          : undefined;
        params.set('sort', saved?.by ?? 'id');
        params.set('dir', saved?.dir ?? 'asc');
      }
      const sort = {
        by: params.get('sort') as GridSort,
        dir: (params.get('dir') ?? 'asc') as GridSortDirection,
      };
      opening.grid = {
        sort,
        count: await part(`/products/count?${params}`),
        rows: await part(`/products/rows?${params}&limit=${block}&at=0`),
      };
      opening.groups = await part('/groups/children');
      return ok(opening);
    },
  );
}
