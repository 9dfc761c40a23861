import { Alert, Button, Modal, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type WorkspaceRow } from '../api.js';
import { errorText } from '../error-text.js';

/** File › Open workspace: opens it for the whole application (REST and agents too). */
export function OpenWorkspaceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const workspaces = useQuery({
    queryKey: ['workspaces'],
    queryFn: () => api<WorkspaceRow[]>('GET', '/workspaces'),
    enabled: opened,
  });
  const open = useMutation({
    mutationFn: (workspaceId: number) => api('POST', '/workspaces/open', { workspaceId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      await queryClient.invalidateQueries({ queryKey: ['status'] });
      onClose();
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('workspaces.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {(workspaces.error ?? open.error) && (
        <Alert color="red" role="alert" mb="sm">
          {errorText(t, workspaces.error ?? open.error)}
        </Alert>
      )}
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('workspaces.name')}</Table.Th>
            <Table.Th>{t('workspaces.folder')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {workspaces.data?.map((ws) => (
            <Table.Tr key={ws.id}>
              <Table.Td>{ws.name}</Table.Td>
              <Table.Td>{ws.rootpath}</Table.Td>
              <Table.Td>
                {ws.active ? (
                  <Text fw={700}>{t('workspaces.active')}</Text>
                ) : (
                  <Button
                    size="compact-sm"
                    onClick={() => open.mutate(ws.id)}
                    aria-label={`${t('workspaces.open')} ${ws.name}`}
                  >
                    {t('workspaces.open')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
