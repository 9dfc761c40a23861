import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, RIGHTS, UNREACHABLE, WindowError, type RestSettings } from '../api.js';
import { errorText } from '../error-text.js';
import { isLoopbackHost, validHost } from '../host-address.js';
import { RestOverrideNote } from './rest-override-note.js';

/** The ports pim may take (below 1024 needs privileges), as the server checks them. */
const PORTS = { min: 1024, max: 65535 };

function validPort(value: number | string): boolean {
  const port = typeof value === 'number' ? value : Number(value.trim() === '' ? NaN : value);
  return Number.isInteger(port) && port >= PORTS.min && port <= PORTS.max;
}

/**
 * Which field a refusal of the server belongs under: the settings service names the key
 * ('rest.host'), the request's schema and the port probe the property ('host').
 */
function fieldOf(error: WindowError | undefined): 'port' | 'host' | undefined {
  if (error?.field === 'port' || error?.field === 'rest.port') return 'port';
  if (error?.field === 'host' || error?.field === 'rest.host') return 'host';
  return undefined;
}

/** Settings › Rest API: Enabled, Port, Address, Save; takes effect at once; read only without the right. */
export function SettingsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['settings', 'rest'],
    queryFn: () => api<RestSettings>('GET', '/settings/rest'),
    enabled: opened,
  });
  const [enabled, setEnabled] = useState(false);
  const [port, setPort] = useState<number | string>(8765);
  const [host, setHost] = useState('127.0.0.1');
  const [portInvalid, setPortInvalid] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.enabled);
    setPort(settings.data.port);
    setHost(settings.data.host);
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () => api<RestSettings>('PUT', '/settings/rest', { enabled, port: Number(port), host }),
    onSuccess: (data) => {
      queryClient.setQueryData(['settings', 'rest'], data);
      void queryClient.invalidateQueries({ queryKey: ['status'] });
    },
  });
  // A refusal of the values goes under its field; no answer at all is no fault of a field.
  const error = save.error instanceof WindowError && save.error.code !== UNREACHABLE ? save.error : undefined;
  const field = fieldOf(error);
  const portError = portInvalid
    ? t('settings.portRange', PORTS)
    : field === 'port'
      ? errorText(t, error)
      : undefined;
  const editable = settings.data?.editable ?? false;
  // --host holds while the stored address is saved unchanged: then it is what others can reach.
  const hostOverride = settings.data?.override.host;
  const effectiveHost = hostOverride !== undefined && host === settings.data?.host ? hostOverride : host;
  // An address the server refuses (or would) exposes nothing: its field error says all there is.
  const exposed = validHost(effectiveHost) && !isLoopbackHost(effectiveHost) && field !== 'host';
  const state = settings.data?.state;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('settings.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Tabs defaultValue="rest">
        <Tabs.List>
          <Tabs.Tab value="rest">{t('settings.restTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="rest" pt="md">
          {settings.isPending && <Loader size="sm" aria-label={t('common.loading')} />}
          {/* Without the saved settings there is nothing true to show: no defaults in their place. */}
          {settings.error && (
            <Alert color="red" role="alert">
              {t('settings.loadFailed', { reason: errorText(t, settings.error) })}
            </Alert>
          )}
          {settings.data && (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                // Refused here, not corrected: the input must never save a port the user did not type.
                const invalid = !validPort(port);
                setPortInvalid(invalid);
                if (invalid) save.reset();
                else save.mutate();
              }}
            >
              <Stack>
                {settings.data && !editable && (
                  <Alert color="yellow" role="note">
                    {t('settings.readOnly', { right: RIGHTS.settings })}
                  </Alert>
                )}
                <Checkbox
                  label={t('settings.enabled')}
                  checked={enabled}
                  disabled={!editable}
                  onChange={(e) => setEnabled(e.currentTarget.checked)}
                />
                <NumberInput
                  label={t('settings.port')}
                  value={port}
                  onChange={(value) => {
                    setPort(value);
                    setPortInvalid(false);
                  }}
                  min={PORTS.min}
                  max={PORTS.max}
                  // Mantine clamps on blur by default: 80 became 1024 and moved the server there.
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  disabled={!editable}
                  error={portError}
                />
                <TextInput
                  label={t('settings.host')}
                  description={t('settings.hostHint')}
                  value={host}
                  disabled={!editable}
                  onChange={(e) => {
                    setHost(e.currentTarget.value);
                    // The refusal was of the address as it was: a new one is judged afresh.
                    if (field === 'host') save.reset();
                  }}
                  error={field === 'host' ? errorText(t, error) : undefined}
                />
                <RestOverrideNote settings={settings.data} />
                {exposed && (
                  <Alert color="orange" role="alert">
                    {t('settings.notLoopback')}
                  </Alert>
                )}
                {save.error && !field && (
                  <Alert color="red" role="alert">
                    {errorText(t, save.error)}
                  </Alert>
                )}
                <Text size="sm" data-testid="rest-state">
                  {t('settings.state')}:{' '}
                  {state?.running ? t('settings.running', { url: state.url }) : t('settings.stopped')}
                </Text>
                <Group justify="flex-end">
                  {save.isSuccess && !save.isPending && <Text size="sm">{t('settings.saved')}</Text>}
                  <Button type="submit" disabled={!editable} loading={save.isPending}>
                    {t('settings.save')}
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
