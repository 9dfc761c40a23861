/**
 * File › Export view… asks the catalogue view, which holds the grid's filters, selection and
 * columns, to open its export dialog. Asked from another view (the monitor), the window first
 * goes to the catalogue, which takes the request up when it mounts: hence a flag besides the event.
 */
export const EXPORT_VIEW_REQUESTED = 'pim:export-view';

let pending = false;

export function requestExportView(): void {
  pending = true;
  window.dispatchEvent(new Event(EXPORT_VIEW_REQUESTED));
}

/** Whether a request waits (and no longer, once asked). */
export function takeExportViewRequest(): boolean {
  const was = pending;
  pending = false;
  return was;
}
