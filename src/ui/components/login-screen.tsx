import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.js';
import { errorText } from '../error-text.js';
import { LanguageSwitch } from './language-switch.js';

/** The desktop login: a login here opens this instance's desktop session (and ends another user's). */
export function LoginScreen({ endedReason, onLoggedIn }: { endedReason?: string; onLoggedIn: () => void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation({
    mutationFn: () => api('POST', '/session/login', { username, password }),
    onSuccess: onLoggedIn,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate();
  };
  return (
    <Center h="100vh" component="main">
      <Paper withBorder shadow="md" p="xl" w={360}>
        <form onSubmit={submit} aria-labelledby="login-title">
          <Stack>
            <Title order={1} size="h3" id="login-title">
              {t('login.title')}
            </Title>
            {endedReason && (
              <Alert color="blue" role="status">
                {t(`login.ended.${endedReason}`, { defaultValue: endedReason })}
              </Alert>
            )}
            <TextInput
              label={t('login.username')}
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              autoComplete="username"
              required
              autoFocus
            />
            <PasswordInput
              visibilityToggleButtonProps={{ 'aria-label': t('login.showPassword') }}
              label={t('login.password')}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="current-password"
              required
            />
            {login.error && (
              <Alert color="red" role="alert">
                {errorText(t, login.error)}
              </Alert>
            )}
            <Button type="submit" loading={login.isPending}>
              {t('login.submit')}
            </Button>
            <LanguageSwitch />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
