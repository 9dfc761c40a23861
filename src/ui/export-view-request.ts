/**
 * File › Export view… asks the catalogue view, which holds the grid's filters, selection and
 * columns, to open its export dialog. Asked from another view (the monitor), the window first
 * goes to the catalogue, which takes the request up when it mounts: hence the request is kept
 * besides the event. It names the menu's button, which gets the focus back when the dialog closes.
 */
export const EXPORT_VIEW_REQUESTED = 'pim:export-view';

export interface ExportViewRequest {
  opener: HTMLElement | null;
}

let pending: ExportViewRequest | undefined;

export function requestExportView(opener: HTMLElement | null): void {
  pending = { opener };
  window.dispatchEvent(new Event(EXPORT_VIEW_REQUESTED));
}

/** The request that waits, if any (and no longer, once taken). */
export function takeExportViewRequest(): ExportViewRequest | undefined {
  const request = pending;
  pending = undefined;
  return request;
}
