import type { KeyboardEvent } from 'react';

/**
 * A dialog form's keys: Enter on a radio button or a check box confirms, as in a text field
 * (the browser only toggles or does nothing there).
 */
export function enterConfirms(event: KeyboardEvent<HTMLFormElement>): void {
  const target = event.target as HTMLInputElement;
  if (event.key === 'Enter' && (target.type === 'checkbox' || target.type === 'radio')) {
    event.preventDefault();
    event.currentTarget.requestSubmit();
  }
}
