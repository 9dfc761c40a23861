import { Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, onSessionRefused, WindowError, type SessionInfo } from './api.js';
import { LoginScreen } from './components/login-screen.js';
import { Shell } from './components/shell.js';
import { SESSION_KEY } from './query-keys.js';

/** The window: the login screen without a desktop session, the application shell with one. */
export function App() {
  const queryClient = useQueryClient();
  const [ended, setEnded] = useState<string | undefined>();
  const { t } = useTranslation();
  const session = useQuery({
    queryKey: SESSION_KEY,
    queryFn: () => api<SessionInfo>('GET', '/session'),
    // The shared database down (503): the session may be alive, so the window waits for it
    // instead of showing the login screen.
    retry: (_count, error) => error instanceof WindowError && error.status === 503,
    retryDelay: 1_000,
  });

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
    const waiting = session.failureReason instanceof WindowError && session.failureReason.status === 503;
    return (
      <Center h="100vh">
        <Stack align="center">
          <Loader aria-label="Loading" />
          {waiting && <Text data-testid="session-waiting">{t('session.waitingForDatabase')}</Text>}
        </Stack>
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
