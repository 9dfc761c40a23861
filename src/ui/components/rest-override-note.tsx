import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RestSettings } from '../api.js';

/**
 * Says that a start option (`pim start --port/--host`) replaces a stored value for this run, and
 * what saving does then: without it the dialog shows the stored port while the server runs on
 * another, and an administrator would look for the server in the wrong place.
 */
export function RestOverrideNote({ settings }: { settings: RestSettings }) {
  const { t } = useTranslation();
  const { override, state } = settings;
  if (override.port === undefined && override.host === undefined) return null;
  // While it runs, the port it took (--port 0 takes any free one); else the one it would take.
  const effectivePort = state.running ? state.port : override.port;
  return (
    <Alert color="blue" role="note" title={t('settings.override.title')} data-testid="rest-override">
      {override.port !== undefined && (
        <Text size="sm">
          {effectivePort === 0
            ? t('settings.override.anyPort', { saved: settings.port })
            : t('settings.override.port', {
                option: override.port,
                port: effectivePort,
                saved: settings.port,
              })}
        </Text>
      )}
      {override.host !== undefined && (
        <Text size="sm">{t('settings.override.host', { host: override.host, saved: settings.host })}</Text>
      )}
      <Text size="sm">{t('settings.override.save')}</Text>
    </Alert>
  );
}
