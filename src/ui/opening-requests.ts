/**
 * The window's opening asks for its first screen in one request (GET /ui/api/opening: the
 * session, the status, the grid's columns, the count, the first rows and the tree's top level)
 * while the browser still evaluates the bundle, instead of one round after another as each view
 * mounts. main.tsx imports this module first, so the request leaves before the rest of the
 * bundle runs. api() takes the parts as the views ask for them (early-requests.ts).
 */
import type { CatalogueChange } from '../window/window-api.types.js';
import type { OpeningDto, OpeningPart } from '../window/opening-api.types.js';
import { isCatalogue, parseCatalogueState } from './catalogue-route.js';
import { childrenPath } from './components/catalogue/group-tree-paths.js';
import { BLOCK, blockPath, countPath, gridParams } from './components/catalogue/grid-query.js';
import { provideEarly, WINDOW_HEADERS, type EarlyAnswer } from './early-requests.js';

/** The opening's answer, and the grid parameters its count and rows are for (gridParams().toString()). */
export interface Opening {
  dto: OpeningDto;
  gridKey?: string;
}

let opening: Promise<Opening | undefined> = Promise.resolve(undefined);
let openingCatalogue: CatalogueChange | undefined;

/** The opening's answer (undefined: it failed, or was not asked for). */
export function openingAnswer(): Promise<Opening | undefined> {
  return opening;
}

/**
 * The catalogue's change counter the opening's parts were read at, once (undefined: unknown). The
 * push channel's first counter, if the same, changes nothing the views show (use-server-events.ts).
 */
export function takeOpeningCatalogue(): CatalogueChange | undefined {
  const counter = openingCatalogue;
  openingCatalogue = undefined;
  return counter;
}

const answerOf = (part: OpeningPart | undefined): EarlyAnswer =>
  part?.success ? { ok: true, data: part.data } : { ok: false };

/** Asks for the opening; its parts go to api() under the paths the views ask for them. */
export function startOpening(): void {
  const hash = window.location.hash;
  const state = isCatalogue(hash) ? parseCatalogueState(hash) : undefined;
  const query = new URLSearchParams();
  if (state) {
    const grid = gridParams(state, { by: state.sort ?? 'id', dir: state.dir });
    // Without a sort in the address, the server takes the user's saved one.
    if (!state.sort) {
      grid.delete('sort');
      grid.delete('dir');
    }
    query.set('grid', grid.toString());
    query.set('block', String(BLOCK));
  }
  const answer = fetch(`/ui/api/opening?${query}`, { credentials: 'same-origin', headers: WINDOW_HEADERS })
    .then(async (response) => {
      const envelope = (await response.json()) as { success?: boolean; data?: OpeningDto };
      return response.ok && envelope.success ? envelope.data : undefined;
    })
    .catch(() => undefined);
  opening = answer.then((dto) => {
    if (!dto) return undefined;
    if (dto.catalogue) openingCatalogue = dto.catalogue;
    // The parameters the grid asks with, with the sort the server took.
    return { dto, gridKey: state && dto.grid ? gridParams(state, dto.grid.sort).toString() : undefined };
  });
  // The parts every screen needs, and the tree's top level on the catalogue.
  const parts: [string, (o: OpeningDto) => OpeningPart | undefined][] = [
    ['/session', (o) => o.session],
    ['/status', (o) => o.status],
    ['/preferences/grid', (o) => o.preferences],
  ];
  if (state) parts.push([childrenPath(null), (o) => o.groups]);
  for (const [path, pick] of parts)
    provideEarly(
      path,
      answer.then((o) => answerOf(o && pick(o))),
    );
  if (!state) return;
  void opening.then((o) => {
    if (!o?.gridKey) return;
    provideEarly(countPath(o.gridKey), Promise.resolve(answerOf(o.dto.grid!.count)));
    provideEarly(blockPath(o.gridKey, 0), Promise.resolve(answerOf(o.dto.grid!.rows)));
  });
}
