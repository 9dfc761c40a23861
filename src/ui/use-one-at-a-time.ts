import type { UseMutationResult } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';

/**
 * Starts a mutation unless one started here is still running. The second click of a double
 * click comes before React has drawn the button disabled (or the menu closed): a ref, set at
 * once, lets only one request run. The function stays the same across renders (mutate does).
 */
export function useOneAtATime<TData, TError, TVariables, TContext>(
  mutation: UseMutationResult<TData, TError, TVariables, TContext>,
): (variables: TVariables) => void {
  const running = useRef(false);
  const { mutate } = mutation;
  return useCallback(
    (variables: TVariables) => {
      if (running.current) return;
      running.current = true;
      mutate(variables, { onSettled: () => (running.current = false) });
    },
    [mutate],
  );
}
