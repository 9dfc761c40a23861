import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFocusOnMount } from '../use-focus-on-mount.js';
import type { SessionInfo, WindowStatus } from '../api.js';

/** Until the catalogue views arrive: where the user is and what to do next. */
export function HomeView({ session, status }: { session: SessionInfo; status: WindowStatus | undefined }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <Stack maw={720} component="section" aria-labelledby="home-title">
      <Title order={1} size="h2" id="home-title" ref={heading} tabIndex={-1}>
        {t('home.welcome', { name: session.user?.username })}
      </Title>
      {status?.workspace && <Text>{t('home.workspace', { name: status.workspace.name })}</Text>}
      <Text>{t('home.intro')}</Text>
    </Stack>
  );
}
