import { Alert, Text, Button, Menu, Select, Stack, Table, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusOnMount } from '../use-focus-on-mount.js';
import { api, RIGHTS, type SessionUser, type UserRow } from '../api.js';
import { AddUserForm, PasswordForm, ROLES } from './users-forms.js';
import { errorText } from '../error-text.js';
import { useOneAtATime } from '../use-one-at-a-time.js';

const column = createColumnHelper<UserRow>();
/** Below this the columns would squeeze the role select and the dates into slivers. */
const TABLE_MIN_WIDTH = 560;
/** One empty list for every render without data: a new array each time makes the table render again, forever. */
const NO_USERS: UserRow[] = [];

/** What the cells need beyond their row, and may change without the columns changing. */
interface UsersTableMeta {
  /** The user whose password form is open. */
  passwordFor: number | undefined;
}

/** Users (right Benutzerverwaltung): list, add, role, password, disable and enable, end sessions. */
export function UsersView({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const queryClient = useQueryClient();
  const allowed = user.rights.includes(RIGHTS.users);
  const users = useQuery({
    queryKey: ['users'],
    queryFn: () => api<UserRow[]>('GET', '/users'),
    enabled: allowed,
  });
  const change = useMutation({
    mutationFn: ({ method, path, body }: { method: string; path: string; body?: unknown }) =>
      api(method, path, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
  // One change of a user at a time: a double click on a role, Disable or Enable sends one request.
  const changeOnce = useOneAtATime(change);
  const [passwordFor, setPasswordFor] = useState<UserRow | undefined>();
  // Whose password was set last: said until the next reset (the form itself is gone then).
  const [passwordSet, setPasswordSet] = useState<string | undefined>();

  const columns = useMemo(
    () => [
      column.accessor('username', { header: () => t('users.name') }),
      column.accessor('role', {
        header: () => t('users.role'),
        cell: (info) => (
          <Select
            aria-label={`${t('users.role')} ${info.row.original.username}`}
            data={ROLES}
            value={info.getValue()}
            allowDeselect={false}
            w={130}
            disabled={change.isPending}
            onChange={(role) =>
              role &&
              changeOnce({ method: 'PUT', path: `/users/${info.row.original.id}/role`, body: { role } })
            }
          />
        ),
      }),
      column.accessor('lastLoginAt', {
        header: () => t('users.lastLogin'),
        cell: (info) => (info.getValue() ? new Date(info.getValue()!).toLocaleString() : t('users.never')),
      }),
      column.accessor('disabled', {
        header: () => t('users.state'),
        cell: (info) => (
          <Text size="sm" fw={info.getValue() ? 700 : 400}>
            {info.getValue() ? t('users.disabled') : t('users.active')}
          </Text>
        ),
      }),
      column.display({
        id: 'actions',
        header: () => t('users.actions'),
        cell: (info) => {
          const row = info.row.original;
          return (
            // The menu gives the focus back to its button when it closes, but not when it opened
            // the password form: that form's field has it (meta: no new columns, no remounted cells).
            <Menu returnFocus={(info.table.options.meta as UsersTableMeta).passwordFor !== row.id}>
              <Menu.Target>
                <Button
                  size="compact-sm"
                  variant="default"
                  aria-label={`${t('users.actions')} ${row.username}`}
                >
                  …
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  onClick={() => {
                    setPasswordSet(undefined);
                    setPasswordFor(row);
                  }}
                >
                  {t('users.resetPassword')}
                </Menu.Item>
                <Menu.Item
                  onClick={() =>
                    changeOnce({
                      method: 'POST',
                      path: `/users/${row.id}/${row.disabled ? 'enable' : 'disable'}`,
                    })
                  }
                >
                  {row.disabled ? t('users.enable') : t('users.disable')}
                </Menu.Item>
                <Menu.Item onClick={() => changeOnce({ method: 'POST', path: `/users/${row.id}/logout` })}>
                  {t('users.endSessions')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          );
        },
      }),
    ],
    [t, change.isPending, changeOnce],
  );
  const table = useReactTable({
    data: users.data ?? NO_USERS,
    columns,
    getCoreRowModel: getCoreRowModel(),
    meta: { passwordFor: passwordFor?.id } satisfies UsersTableMeta,
  });

  if (!allowed) {
    return (
      <Alert color="yellow" role="note">
        {t('users.noRight', { right: RIGHTS.users })}
      </Alert>
    );
  }
  return (
    <Stack component="section" aria-labelledby="users-title" maw={1000}>
      <Title order={1} size="h3" id="users-title" ref={heading} tabIndex={-1}>
        {t('users.title')}
      </Title>
      {(users.error ?? change.error) && (
        <Alert color="red" role="alert">
          {errorText(t, users.error ?? change.error)}
        </Alert>
      )}
      {/* In a narrow window the table scrolls sideways on its own; the page does not. */}
      <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
        <Table striped highlightOnHover>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <Table.Th key={header.id}>
                    {flexRender(header.column.columnDef.header, header.getContext())}
                  </Table.Th>
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} data-testid={`user-${row.original.username}`}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {passwordSet && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setPasswordSet(undefined)}
        >
          {t('users.passwordSet')}
        </Alert>
      )}
      {passwordFor && (
        <PasswordForm
          key={passwordFor.id}
          user={passwordFor}
          onCancel={() => setPasswordFor(undefined)}
          onDone={() => {
            setPasswordSet(passwordFor.username);
            setPasswordFor(undefined);
          }}
        />
      )}
      <AddUserForm />
    </Stack>
  );
}
