import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { WindowStatus } from './api.js';

/**
 * The window's push channel: status changes go into the query cache (the status bar follows),
 * the end of the desktop session sends the window back to the login screen at once.
 */
export function useServerEvents(onSessionEnded: (reason: string) => void): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource('/ui/api/events');
    source.addEventListener('status', (event) => {
      queryClient.setQueryData<WindowStatus>(['status'], JSON.parse((event as MessageEvent<string>).data));
    });
    source.addEventListener('session-ended', (event) => {
      source.close();
      const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
      onSessionEnded(reason);
    });
    return () => source.close();
  }, [queryClient, onSessionEnded]);
}
