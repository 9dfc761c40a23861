import { Box, Button, Drawer, Group, Loader, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RIGHTS, type SessionInfo, type WindowStatus } from '../../api.js';
import { startSheet } from '../../catalogue-api.js';
import { parseCatalogueState, setLeaveGuard, useCatalogueState } from '../../catalogue-route.js';
import { useFocusOnMount } from '../../use-focus-on-mount.js';
import { MASS_EDIT_REQUESTED } from '../../mass-edit-request.js';
import { EXPORT_VIEW_REQUESTED, takeExportViewRequest } from '../../export-view-request.js';
import type { GridColumnId, GridPreferences } from './grid-columns.js';
import { GroupTree } from './group-tree.js';
import { gridParams } from './grid-query.js';
import { GridToolbar } from './grid-toolbar.js';
import { NOTHING_SELECTED, selectionOf, selectionSize, type GridSelection } from './grid-selection.js';
import type { SelectionView } from '../../../window/mass-edit-api.types.js';
import { MassEditDialog } from './mass-edit-dialog.js';
import { ExportViewDialog, type ExportedView } from './export-view-dialog.js';
import { SelectionBar } from './selection-bar.js';
import { ProductGrid } from './product-grid.js';
import { ProductPanel } from './product-panel.js';
import { useGridPreferences } from './use-grid-preferences.js';
import { languagesQuery } from './language-picker.js';

interface Props {
  session: SessionInfo;
  status: WindowStatus | undefined;
  onWorkspaceDialog: (which: 'workspace' | 'new-workspace', opener: HTMLElement | null) => void;
}

/**
 * The catalogue: the group tree, the product grid and the product editor beside it (or alone),
 * the state of all three in the address. Without an open workspace, a prompt to open one.
 */
export function CatalogueView({ session, status, onWorkspaceDialog }: Props) {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const rights = status?.user?.rights ?? session.user?.rights ?? [];
  if (status === undefined) return <Loader aria-label={t('common.loading')} />;
  if (!status.workspace) {
    return (
      <Stack maw={560} component="section" aria-labelledby="catalogue-title">
        <Title order={1} size="h2" id="catalogue-title" ref={heading} tabIndex={-1}>
          {t('catalogue.noWorkspaceTitle')}
        </Title>
        <Text>
          {rights.includes(RIGHTS.workspaces) ? t('catalogue.noWorkspace') : t('catalogue.noWorkspaceAsk')}
        </Text>
        {rights.includes(RIGHTS.workspaces) && (
          <Group>
            <Button onClick={(e) => onWorkspaceDialog('workspace', e.currentTarget)}>
              {t('menu.openWorkspace')}
            </Button>
            <Button variant="default" onClick={(e) => onWorkspaceDialog('new-workspace', e.currentTarget)}>
              {t('menu.newWorkspace')}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }
  return (
    <Catalogue
      key={status.workspace.id}
      canEdit={rights.includes(RIGHTS.edit)}
      workspace={status.workspace.name}
    />
  );
}

function Catalogue({ canEdit, workspace }: { canEdit: boolean; workspace: string }) {
  const { t } = useTranslation();
  const [state, update] = useCatalogueState();
  const [preferences, setPreferences] = useGridPreferences();
  // The editor's language list, asked for now rather than when a product first opens; not
  // watched here, so that its answer does not render the whole catalogue again.
  const queryClient = useQueryClient();
  useEffect(() => void queryClient.prefetchQuery(languagesQuery), [queryClient]);
  const [count, setCount] = useState<number | undefined>();
  const searchRef = useRef<HTMLInputElement>(null);
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  // After the login or a change of view the keyboard starts at the view's heading, as in the others.
  const heading = useFocusOnMount<HTMLHeadingElement>();

  // Ctrl/Cmd+F: the grid's search, not the browser's (which finds only the rows in the DOM).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The sort in the address wins (a shared link); else the user's own.
  const sort = state.sort
    ? { by: state.sort, dir: state.dir }
    : (preferences?.sort ?? { by: 'id', dir: 'asc' });
  const params = gridParams(state, sort);
  // Unsaved changes in the editor: moving to another product or view asks first.
  const dirty = useRef(false);
  const onPreferences = useCallback(
    (next: GridPreferences) => {
      setPreferences(next);
      if (next.sort.by !== sort.by || next.sort.dir !== sort.dir)
        update({ sort: next.sort.by, dir: next.sort.dir });
    },
    [setPreferences, update, sort.by, sort.dir],
  );
  const open = useCallback(
    (id: number) => {
      // Without unsaved changes nothing stops the move: the editor's sheet is asked for at once.
      if (!dirty.current && parseCatalogueState(window.location.hash).product !== id) startSheet(id);
      update({ product: id });
    },
    [update],
  );
  const [selection, setSelection] = useState<GridSelection>(NOTHING_SELECTED);
  const [withVariants, setWithVariants] = useState(false);
  const onSelect = useCallback((ids: ReadonlySet<number>) => setSelection({ ids, allMatching: false }), []);
  const size = selectionSize(selection, count);
  // The dialog works on the selection as it was when opened: the grid may change under a running job.
  const [massEdit, setMassEdit] = useState<{ select: SelectionView; size: number } | null>(null);
  const current = useRef({ select: selectionOf(state, selection, withVariants), size });
  current.current = { select: selectionOf(state, selection, withVariants), size };
  const openMassEdit = useCallback(() => {
    if (current.current.size > 0) setMassEdit(current.current);
  }, []);
  // Edit › Mass edit… in the menu bar asks for it here, where the selection is.
  useEffect(() => {
    if (!canEdit) return;
    window.addEventListener(MASS_EDIT_REQUESTED, openMassEdit);
    return () => window.removeEventListener(MASS_EDIT_REQUESTED, openMassEdit);
  }, [canEdit, openMassEdit]);
  // File › Export view…: the selection if there is one, else everything the grid's filters match.
  const [exported, setExported] = useState<ExportedView | null>(null);
  const exportOpener = useRef<HTMLElement | null>(null);
  const view = useRef({ state, selection, withVariants, count, preferences });
  view.current = { state, selection, withVariants, count, preferences };
  const openExport = useCallback(() => {
    const request = takeExportViewRequest();
    if (!request) return;
    exportOpener.current = request.opener;
    const { state, selection, withVariants, count, preferences } = view.current;
    const picked = selectionSize(selection, count) > 0;
    const select = picked ? selection : { ids: new Set<number>(), allMatching: true };
    setExported({
      select: selectionOf(state, select, withVariants),
      // Not counted yet (the catalogue was just shown for this request): the dialog names no number.
      size: picked || count !== undefined ? selectionSize(select, count) : undefined,
      picked: picked && !selection.allMatching,
      columns: (preferences?.columns ?? []).filter((c) => c.visible).map((c) => c.id as GridColumnId),
    });
  }, []);
  const closeExport = useCallback(() => {
    setExported(null);
    // Back to the menu that opened the dialog (Mantine would return it to the menu item, gone by then).
    requestAnimationFrame(() => exportOpener.current?.focus());
  }, []);
  useEffect(() => {
    // Asked from another view, before this one was shown.
    openExport();
    window.addEventListener(EXPORT_VIEW_REQUESTED, openExport);
    return () => window.removeEventListener(EXPORT_VIEW_REQUESTED, openExport);
  }, [openExport]);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const selectGroup = useCallback((groupId: number | null) => update({ groupId }), [update]);
  useEffect(() => setLeaveGuard(() => !dirty.current || window.confirm(t('editor.leaveUnsaved'))), [t]);
  const editorAlone = state.product !== null && (state.alone || narrow);

  return (
    <Box
      component="section"
      aria-label={t('catalogue.label', { workspace })}
      style={{
        display: 'flex',
        gap: 'var(--mantine-spacing-sm)',
        height:
          'calc(100dvh - var(--app-shell-header-offset, 0px) - var(--app-shell-footer-offset, 0px) - 2 * var(--mantine-spacing-md))',
        minHeight: 320,
      }}
    >
      <VisuallyHidden component="h1" ref={heading} tabIndex={-1}>
        {t('catalogue.title', { workspace })}
      </VisuallyHidden>
      {!editorAlone && !narrow && (
        <Box style={{ flex: '0 0 230px', overflow: 'auto', minWidth: 0 }} data-testid="group-panel">
          <GroupTree selectedGroupId={state.groupId} onSelect={selectGroup} canEdit={canEdit} />
        </Box>
      )}
      {narrow && (
        <Drawer
          opened={groupsOpen}
          onClose={() => setGroupsOpen(false)}
          title={t('groupTree.title')}
          size="85%"
          closeButtonProps={{ 'aria-label': t('common.close') }}
        >
          <GroupTree selectedGroupId={state.groupId} onSelect={selectGroup} canEdit={canEdit} />
        </Drawer>
      )}
      {!editorAlone && preferences && (
        <Box style={{ display: 'flex', flexDirection: 'column', flex: 1, minWidth: 0 }}>
          <GridToolbar
            state={state}
            update={update}
            count={count}
            preferences={{ ...preferences, sort }}
            onPreferences={onPreferences}
            searchRef={searchRef}
            canEdit={canEdit}
            onNew={() => update({ product: 'new' })}
            onGroups={narrow ? () => setGroupsOpen(true) : undefined}
          />
          {canEdit && (
            <SelectionBar
              selection={selection}
              count={count}
              withVariants={withVariants}
              onAllMatching={() => setSelection({ ids: new Set(), allMatching: true })}
              onClear={() => setSelection(NOTHING_SELECTED)}
              onWithVariants={setWithVariants}
              onMassEdit={openMassEdit}
            />
          )}
          <ProductGrid
            params={params}
            selection={selection}
            onSelect={onSelect}
            onMassEdit={canEdit && size > 0 ? openMassEdit : undefined}
            preferences={{ ...preferences, sort }}
            onPreferences={onPreferences}
            openId={typeof state.product === 'number' ? state.product : null}
            onOpen={open}
            onCount={setCount}
            canEdit={canEdit}
            onNew={() => update({ product: 'new' })}
            onDeleted={(id) => {
              if (state.product === id) {
                dirty.current = false;
                update({ product: null, alone: false });
              }
            }}
          />
        </Box>
      )}
      {canEdit && (
        <MassEditDialog
          opened={massEdit !== null}
          onClose={() => setMassEdit(null)}
          select={massEdit?.select ?? {}}
          size={massEdit?.size ?? 0}
        />
      )}
      <ExportViewDialog view={exported} onClose={closeExport} />
      {state.product !== null && (
        <ProductPanel
          productId={state.product}
          canEdit={canEdit}
          alone={editorAlone}
          onAlone={(alone) => update({ alone })}
          onOpenProduct={open}
          onCreated={(id) => {
            dirty.current = false;
            update({ product: id }, { replace: true });
          }}
          onClose={() => update({ product: null, alone: false })}
          onDirtyChange={(value) => {
            dirty.current = value;
          }}
        />
      )}
    </Box>
  );
}
