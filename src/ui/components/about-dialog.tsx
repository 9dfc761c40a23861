import { Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionInfo } from '../api.js';

export function AboutDialog({
  opened,
  onClose,
  session,
}: {
  opened: boolean;
  onClose: () => void;
  session: SessionInfo;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('about.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack>
        <Text>{t('about.text')}</Text>
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">{t('about.version')}</Table.Th>
              <Table.Td>{session.version}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('about.machine')}</Table.Th>
              <Table.Td data-testid="machine-id">{session.machineId}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Stack>
    </Modal>
  );
}
