/**
 * The window event Edit › Mass edit… sends: the menu bar does not know the grid's selection, so
 * the catalogue view, which holds it, opens the dialog (and ignores it while nothing is selected).
 */
export const MASS_EDIT_REQUESTED = 'pim:mass-edit';

export function requestMassEdit(): void {
  window.dispatchEvent(new Event(MASS_EDIT_REQUESTED));
}
