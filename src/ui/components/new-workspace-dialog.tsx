import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { errorText } from '../error-text.js';

/** File › New workspace: a new, empty catalogue in a folder of its own, opened at once. */
export function NewWorkspaceDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('deu');
  const create = useMutation({
    mutationFn: () => api('POST', '/workspaces', { name, language }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      await queryClient.invalidateQueries({ queryKey: ['status'] });
      setName('');
      onClose();
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('workspaces.newTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!create.isPending) create.mutate();
        }}
      >
        <Stack>
          {create.error && (
            <Alert color="red" role="alert">
              {errorText(t, create.error)}
            </Alert>
          )}
          <TextInput
            label={t('workspaces.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            data-autofocus
          />
          <TextInput
            label={t('workspaces.language')}
            description={t('workspaces.languageHint')}
            value={language}
            maxLength={3}
            onChange={(e) => setLanguage(e.currentTarget.value.toLowerCase())}
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('workspaces.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
