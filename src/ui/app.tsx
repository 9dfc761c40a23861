import { Center, Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, onSessionRefused, type SessionInfo } from './api.js';
import { LoginScreen } from './components/login-screen.js';
import { Shell } from './components/shell.js';

/** The window: the login screen without a desktop session, the application shell with one. */
export function App() {
  const queryClient = useQueryClient();
  const [ended, setEnded] = useState<string | undefined>();
  const session = useQuery({ queryKey: ['session'], queryFn: () => api<SessionInfo>('GET', '/session') });

  const onEnded = useCallback(
    (reason: string) => {
      setEnded(reason);
      queryClient.setQueryData<SessionInfo>(['session'], (old) => (old ? { ...old, user: null } : old));
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    },
    [queryClient],
  );
  // The server refused the session: ended while the window did not hear it (no push then).
  useEffect(
    () =>
      onSessionRefused(() => {
        if (queryClient.getQueryData<SessionInfo>(['session'])?.user) onEnded('ended');
      }),
    [queryClient, onEnded],
  );

  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  const info = session.data;
  if (!info?.user) {
    return (
      <LoginScreen
        endedReason={ended}
        onLoggedIn={() => {
          setEnded(undefined);
          void queryClient.invalidateQueries();
        }}
      />
    );
  }
  return <Shell session={info} onSessionEnded={onEnded} />;
}
