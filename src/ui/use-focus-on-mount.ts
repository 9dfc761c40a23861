import { useEffect, useRef } from 'react';

/**
 * A ref whose element takes the focus when it appears: a view's heading (tabIndex -1), so that
 * after the login or a change of view the keyboard and screen readers start there, not on BODY.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
