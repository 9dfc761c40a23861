import { Alert, AppShell } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, RIGHTS, type SessionInfo, type WindowStatus } from '../api.js';
import { errorText } from '../error-text.js';
import { STATUS_KEY } from '../query-keys.js';
import { useServerEvents } from '../use-server-events.js';
import { useViewRoute } from '../view-route.js';
import { AboutDialog } from './about-dialog.js';
import { CatalogueView } from './catalogue/catalogue-view.js';
import { ExportDialog } from './export-dialog.js';
import { ImportDialog } from './import-dialog.js';
import { gridPreferencesQuery } from './catalogue/use-grid-preferences.js';
import { MenuBar, type Dialog } from './menu-bar.js';
import { MonitorView } from './monitor-view.js';
import { NewWorkspaceDialog } from './new-workspace-dialog.js';
import { OpenWorkspaceDialog } from './open-workspace-dialog.js';
import { RunningJobs } from './running-jobs.js';
import { SettingsDialog } from './settings-dialog.js';
import { StatusBar } from './status-bar.js';
import { UsersView } from './users-view.js';

/** The bars' height on one line (a wide window). */
const HEADER_MIN = 44;
const FOOTER_MIN = 32;

/** The application window: menu bar, the current view, the status bar; dialogs above. */
export function Shell({
  session,
  onSessionEnded,
}: {
  session: SessionInfo;
  onSessionEnded: (reason: string) => void;
}) {
  const [dialog, setDialog] = useState<Dialog | undefined>();
  const [logoutError, setLogoutError] = useState<unknown>();
  const { t } = useTranslation();
  useServerEvents(onSessionEnded);
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => api<WindowStatus>('GET', '/status') });
  // Asked for with the status, not after it: the catalogue's grid waits for the user's columns.
  useQuery(gridPreferencesQuery);
  // The rights as pushed with the status (a role changed meanwhile), else as at the login.
  const rights = status.data?.user?.rights ?? session.user!.rights;
  const [view, setView] = useViewRoute(rights);
  // The bars wrap onto more lines in a narrow window: the shell makes room for what they need.
  const menuBar = useElementSize();
  const statusBar = useElementSize();
  const opener = useRef<HTMLElement | null>(null);
  // The job the import dialog shows when opened from the status bar (else its form).
  const [importJob, setImportJob] = useState<number | undefined>();
  const open = (which: Dialog, from: HTMLElement | null, job?: number) => {
    opener.current = from;
    setImportJob(job);
    setDialog(which);
  };
  // Back to the menu that opened the dialog (Mantine would return it to the menu item, gone by then).
  const close = () => {
    setDialog(undefined);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <AppShell
      header={{ height: Math.max(HEADER_MIN, Math.ceil(menuBar.height)) }}
      footer={{ height: Math.max(FOOTER_MIN, Math.ceil(statusBar.height)) }}
      padding="md"
    >
      <AppShell.Header>
        <div ref={menuBar.ref}>
          <MenuBar
            rights={rights}
            rest={status.data?.rest}
            workspaceOpen={Boolean(status.data?.workspace)}
            onView={setView}
            onDialog={open}
            onLoggedOut={onSessionEnded}
            onLogoutFailed={setLogoutError}
          />
        </div>
      </AppShell.Header>
      <AppShell.Main>
        {logoutError !== undefined && (
          <Alert
            color="red"
            role="alert"
            mb="md"
            withCloseButton
            closeButtonLabel={t('common.close')}
            onClose={() => setLogoutError(undefined)}
          >
            {t('logout.failed', { reason: errorText(t, logoutError) })}
          </Alert>
        )}
        {view === 'home' && (
          <CatalogueView
            session={session}
            status={status.data}
            onWorkspaceDialog={(which, opener) => open(which, opener)}
          />
        )}
        {view === 'monitor' && <MonitorView />}
        {view === 'users' && <UsersView user={session.user!} />}
      </AppShell.Main>
      <AppShell.Footer>
        <div ref={statusBar.ref}>
          <StatusBar status={status.data} />
          <RunningJobs onOpenImport={(id, from) => open('import', from, id)} />
        </div>
      </AppShell.Footer>
      <SettingsDialog opened={dialog === 'settings'} onClose={close} />
      <OpenWorkspaceDialog opened={dialog === 'workspace'} onClose={close} />
      <NewWorkspaceDialog opened={dialog === 'new-workspace'} onClose={close} />
      <ImportDialog
        opened={dialog === 'import'}
        onClose={close}
        workspace={status.data?.workspace?.name ?? ''}
        jobId={importJob}
      />
      <ExportDialog opened={dialog === 'export'} onClose={close} canEdit={rights.includes(RIGHTS.edit)} />
      <AboutDialog opened={dialog === 'about'} onClose={close} session={session} />
    </AppShell>
  );
}
