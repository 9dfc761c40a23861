/**
 * The JSON of GET /ui/api/opening (src/window/routes/opening.routes.ts), which the front end
 * imports: the window's first screen in one request.
 */
import type { GridSort, GridSortDirection } from './catalogue-api.types.js';
import type { CatalogueChange } from './window-api.types.js';

/** One part: the envelope the part's own endpoint answered, success or refusal, as it answered it. */
export interface OpeningPart {
  success: boolean;
  data?: unknown;
  error?: string;
  code?: string;
}

export interface OpeningDto {
  /** GET /ui/api/session; without a desktop session the answer holds nothing else. */
  session: OpeningPart;
  /** GET /ui/api/status. */
  status?: OpeningPart;
  /** GET /ui/api/preferences/grid. */
  preferences?: OpeningPart;
  /**
   * The open workspace's change counter, read before every part of the catalogue (null: no
   * workspace open, or unreadable): the push channel's counter at its start, if the same, says
   * that nothing changed since, so the parts need not be asked again.
   */
  catalogue?: CatalogueChange | null;
  /** With `grid` and a workspace open: the grid's count and first rows, sorted as `sort` says. */
  grid?: {
    /** The address's sort when `grid` names one, else the user's saved one, else by id. */
    sort: { by: GridSort; dir: GridSortDirection };
    /** GET /ui/api/products/count?<grid with sort>. */
    count: OpeningPart;
    /** GET /ui/api/products/rows?<grid with sort>&limit=<block>&at=0. */
    rows: OpeningPart;
  };
  /** With `grid` and a workspace open: GET /ui/api/groups/children (the tree's top level). */
  groups?: OpeningPart;
}
