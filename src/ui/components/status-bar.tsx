import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WindowStatus } from '../api.js';
import { useConnectionLost } from '../connection.js';

/** User and role, the open workspace, the REST server's state: live (server push). */
export function StatusBar({ status }: { status: WindowStatus | undefined }) {
  const { t } = useTranslation();
  const lost = useConnectionLost();
  if (!status) return null;
  const rest = status.rest;
  // Without a connection the last facts heard are not facts any more: say so instead of showing them as live.
  const restText = lost
    ? t('status.unknown')
    : rest.running
      ? t('status.restRunning', { url: rest.url })
      : rest.enabled && rest.problem
        ? t('status.restProblem', { problem: rest.problem })
        : t('status.restStopped');
  const database = status.database;
  const databaseText = lost
    ? t('status.unknown')
    : database.kind === 'sqlite'
      ? t('status.databaseSqlite')
      : database.reachable
        ? t('status.databaseShared', { target: database.target })
        : t('status.databaseDown', { target: database.target });
  return (
    <Group
      mih={32}
      px="sm"
      py={4}
      gap="lg"
      // In a narrow window the facts wrap onto more lines (the shell makes room), none cut off.
      style={{ rowGap: 2, overflowWrap: 'anywhere' }}
      role="status"
      aria-live="polite"
    >
      {lost && (
        <Text size="sm" fw={700} data-testid="status-connection">
          <Dot color="red" />
          {t('status.connectionLost')}
        </Text>
      )}
      <Text size="sm">
        {t('status.user')}: <strong data-testid="status-user">{status.user?.username}</strong> (
        {status.user?.role})
      </Text>
      <Text size="sm">
        {t('status.workspace')}:{' '}
        <strong data-testid="status-workspace">{status.workspace?.name ?? t('status.noWorkspace')}</strong>
      </Text>
      <Text size="sm">
        {t('status.rest')}:{' '}
        <Dot color={lost ? 'gray' : rest.running ? 'green' : rest.enabled ? 'red' : 'gray'} />
        <strong data-testid="status-rest">{restText}</strong>
      </Text>
      <Text size="sm">
        {t('status.database')}: <Dot color={lost ? 'gray' : database.reachable ? 'green' : 'red'} />
        <strong data-testid="status-database">{databaseText}</strong>
      </Text>
    </Group>
  );
}

/** A coloured state mark; the text beside it says the same for those who cannot see colours. */
function Dot({ color }: { color: 'green' | 'red' | 'gray' }) {
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 9,
        height: 9,
        borderRadius: '50%',
        marginRight: 4,
        background: `var(--mantine-color-${color}-6)`,
      }}
    />
  );
}
