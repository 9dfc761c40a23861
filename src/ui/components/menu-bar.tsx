import { Button, Group, Menu, Switch, Text, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRef } from 'react';
import { api, RIGHTS, WindowError, type RestState } from '../api.js';
import { apiReferenceUrl } from '../api-reference.js';
import { requestExportView } from '../export-view-request.js';
import { requestMassEdit } from '../mass-edit-request.js';
import { viewAllowed, type View } from '../view-route.js';
import { LanguageSwitch } from './language-switch.js';

export type Dialog = 'settings' | 'workspace' | 'new-workspace' | 'import' | 'export' | 'about';

interface Props {
  /** The user's rights: only what the role may do is offered (the server refuses the rest all the same). */
  rights: readonly string[];
  /** The REST server as the status says (undefined until it came). */
  rest: RestState | undefined;
  /** Whether a workspace is open (import and export work on it). */
  workspaceOpen: boolean;
  onView: (view: View) => void;
  /** `opener`: the menu's button, which gets the focus back when the dialog closes. */
  onDialog: (dialog: Dialog, opener: HTMLElement | null) => void;
  onLoggedOut: (reason: string) => void;
  /** The logout did not reach the server: the session lives on, so the window must not claim otherwise. */
  onLogoutFailed: (error: unknown) => void;
}

interface MenuEntry {
  label: string;
  onClick: () => void;
  /** False: the role may not do it, so it is not offered. */
  allowed?: boolean;
  /** Why it cannot be done now: offered disabled, with the reason beneath. */
  unavailable?: string;
}

/** A desktop application's menu bar; every menu is a button with a keyboard-reachable list. */
export function MenuBar({
  rights,
  rest,
  workspaceOpen,
  onView,
  onDialog,
  onLoggedOut,
  onLogoutFailed,
}: Props) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  // The button of the menu opened last: a dialog's item is gone when the dialog closes.
  const opener = useRef<HTMLElement | null>(null);
  const dialog = (which: Dialog) => () => onDialog(which, opener.current);
  // The REST server's reference page, where it runs now; nothing to open while it does not run.
  const reference = apiReferenceUrl(rest, window.location.hostname);
  const logout = async () => {
    try {
      await api('POST', '/session/logout');
    } catch (error) {
      // 401: the session had already ended, so the user is logged out all the same.
      if (!(error instanceof WindowError && error.status === 401)) return onLogoutFailed(error);
    }
    onLoggedOut('logout');
  };
  const menu = (label: string, all: MenuEntry[]) => {
    const items = all.filter((item) => item.allowed !== false);
    if (items.length === 0) return null;
    return (
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="subtle" size="compact-sm" onClick={(e) => (opener.current = e.currentTarget)}>
            {label}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {items.map((item) => (
            <Menu.Item key={item.label} onClick={item.onClick} disabled={item.unavailable !== undefined}>
              {item.label}
              {item.unavailable !== undefined && (
                <Text size="xs" c="dimmed">
                  {item.unavailable}
                </Text>
              )}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  };
  return (
    <Group
      mih={44}
      px="sm"
      py={4}
      justify="space-between"
      // In a narrow window the switches wrap under the menus (the shell makes room).
      style={{ rowGap: 4 }}
      component="nav"
      aria-label={t('app.title')}
    >
      <Group gap={2}>
        <Button variant="transparent" size="compact-sm" fw={700} onClick={() => onView('home')}>
          pim
        </Button>
        {menu(t('menu.file'), [
          {
            label: t('menu.openWorkspace'),
            onClick: dialog('workspace'),
            allowed: rights.includes(RIGHTS.workspaces),
          },
          {
            label: t('menu.newWorkspace'),
            onClick: dialog('new-workspace'),
            allowed: rights.includes(RIGHTS.workspaces),
          },
          {
            label: t('menu.import'),
            onClick: dialog('import'),
            // A VIEWER reads only: no import (the server refuses it all the same).
            allowed: rights.includes(RIGHTS.edit),
            unavailable: workspaceOpen ? undefined : t('menu.needsWorkspace'),
          },
          {
            label: t('menu.exportView'),
            onClick: () => {
              // The catalogue holds the view: shown first if another view is (it then opens the dialog).
              onView('home');
              requestExportView(opener.current);
            },
            unavailable: workspaceOpen ? undefined : t('menu.needsWorkspace'),
          },
          {
            label: t('menu.exportBmecat'),
            onClick: dialog('export'),
            unavailable: workspaceOpen ? undefined : t('menu.needsWorkspace'),
          },
          { label: t('menu.logout'), onClick: () => void logout() },
          { label: t('menu.quit'), onClick: () => void logout() },
        ])}
        {menu(t('menu.edit'), [
          {
            label: t('menu.massEdit'),
            onClick: requestMassEdit,
            // A VIEWER reads only: no mass edit (the server refuses it all the same).
            allowed: rights.includes(RIGHTS.edit),
            unavailable: workspaceOpen ? undefined : t('menu.needsWorkspace'),
          },
        ])}
        {menu(t('menu.window'), [{ label: t('menu.monitor'), onClick: () => onView('monitor') }])}
        {menu(t('menu.settings'), [{ label: t('menu.settingsDialog'), onClick: dialog('settings') }])}
        {menu(t('menu.users'), [
          {
            label: t('menu.manageUsers'),
            onClick: () => onView('users'),
            allowed: viewAllowed('users', rights),
          },
        ])}
        {menu(t('menu.help'), [
          { label: t('menu.about'), onClick: dialog('about') },
          {
            label: t('menu.apiReference'),
            onClick: () => reference && window.open(reference, '_blank', 'noopener'),
            unavailable: reference ? undefined : t('menu.apiReferenceOff'),
          },
        ])}
      </Group>
      <Group gap="sm">
        <Switch
          size="sm"
          label={t('menu.theme')}
          checked={colorScheme === 'dark'}
          onChange={(e) => setColorScheme(e.currentTarget.checked ? 'dark' : 'light')}
        />
        <LanguageSwitch />
      </Group>
    </Group>
  );
}
