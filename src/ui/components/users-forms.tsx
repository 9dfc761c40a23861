import { Alert, Button, Group, PasswordInput, Select, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type UserRow } from '../api.js';
import { errorText } from '../error-text.js';
import { useOneAtATime } from '../use-one-at-a-time.js';

export const ROLES = ['ADMIN', 'EDITOR', 'VIEWER'];

/**
 * Users › Reset password: the field takes the focus, Escape or Cancel closes the form, and the
 * view says when the password was set (onDone).
 */
export function PasswordForm({
  user,
  onDone,
  onCancel,
}: {
  user: UserRow;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const set = useMutation({
    mutationFn: () => api('PUT', `/users/${user.id}/password`, { password }),
    onSuccess: onDone,
  });
  const submit = useOneAtATime(set);
  return (
    <form
      aria-label={t('users.resetPassword')}
      onSubmit={(event) => {
        event.preventDefault();
        submit(undefined);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <Group align="flex-end">
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('login.showPassword') }}
          label={`${t('users.newPassword')} (${user.username})`}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          required
          autoComplete="new-password"
          error={set.error ? errorText(t, set.error) : undefined}
          data-autofocus
          autoFocus
        />
        <Button type="submit" loading={set.isPending} disabled={set.isPending}>
          {t('users.setPassword')}
        </Button>
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </Group>
    </form>
  );
}

/** Users › Add user: name, role, initial password. */
export function AddUserForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<string | null>('EDITOR');
  const [password, setPassword] = useState('');
  const add = useMutation({
    mutationFn: () => api('POST', '/users', { username, role, password }),
    onSuccess: () => {
      setUsername('');
      setPassword('');
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const create = useOneAtATime(add);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create(undefined);
  };
  return (
    <form onSubmit={submit} aria-labelledby="add-user-title">
      <Title order={2} size="h4" id="add-user-title" mb="xs">
        {t('users.add')}
      </Title>
      <Group align="flex-start">
        <TextInput
          label={t('users.name')}
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
          required
        />
        <Select label={t('users.role')} data={ROLES} value={role} onChange={setRole} allowDeselect={false} />
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('login.showPassword') }}
          label={t('users.initialPassword')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          required
          autoComplete="new-password"
        />
        <Button type="submit" mt={24} loading={add.isPending} disabled={add.isPending}>
          {t('users.create')}
        </Button>
      </Group>
      {add.error && (
        <Alert color="red" role="alert" mt="sm">
          {errorText(t, add.error)}
        </Alert>
      )}
    </form>
  );
}
