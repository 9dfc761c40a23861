import { Alert, Button, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WindowError } from '../../api.js';
import {
  createProduct,
  deleteProduct,
  loadSheet,
  saveSheet,
  type ProductSheet,
  type VersionedSheet,
} from '../../catalogue-api.js';
import { errorText } from '../../error-text.js';
import { CATALOGUE_CHANGED } from '../../use-server-events.js';
import { ConflictDialog, DeleteDialog } from './product-editor-dialogs.js';
import { ProductFeatures } from './product-editor-features.js';
import { ProductFields } from './product-editor-fields.js';
import { ProductGroupField } from './product-editor-group.js';
import {
  createDocumentOf,
  draftOf,
  emptyDraft,
  featureLanguages,
  fieldKeyOf,
  sheetOf,
  type Draft,
} from './product-editor-model.js';
import { ProductTexts } from './product-editor-texts.js';
import { ProductVariants } from './product-editor-variants.js';

export interface ProductEditorProps {
  productId: number | 'new';
  canEdit: boolean;
  onOpenProduct(id: number): void;
  onClose(): void;
  onCreated(id: number): void;
  onDeleted(): void;
  onDirtyChange(dirty: boolean): void;
}

/** The language of a new product's first text tab. */
const FIRST_LANGUAGE = 'deu';

/**
 * The product editor: the whole product sheet in one read, every change of the form in one save
 * under the revision read (a change made elsewhere meanwhile: reload or overwrite), refusals
 * under the field they name.
 */
export function ProductEditor(props: ProductEditorProps) {
  const { productId, canEdit, onDirtyChange } = props;
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<VersionedSheet | undefined>();
  const [initial, setInitial] = useState<Draft | undefined>(
    productId === 'new' ? emptyDraft(FIRST_LANGUAGE) : undefined,
  );
  const [draft, setDraft] = useState<Draft | undefined>(initial);
  const [loadError, setLoadError] = useState<unknown>();
  const [formError, setFormError] = useState<string | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tab, setTab] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const show = useCallback((answer: VersionedSheet) => {
    const next = draftOf(answer.sheet);
    setLoaded(answer);
    setInitial(next);
    setDraft(next);
    setErrors({});
    setFormError(undefined);
  }, []);

  const reload = useCallback(async () => {
    if (productId === 'new') return;
    setLoadError(undefined);
    try {
      show(await loadSheet(productId));
    } catch (error) {
      setLoadError(error);
    }
  }, [productId, show]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // Changed elsewhere (REST, MCP, another window) while open: an untouched form shows the new
  // state at once; a form with changes keeps them (Save then meets the conflict and offers the choice).
  const pristine = useRef(true);
  useEffect(() => {
    const onChanged = () => {
      if (pristine.current) void reload();
    };
    window.addEventListener(CATALOGUE_CHANGED, onChanged);
    return () => window.removeEventListener(CATALOGUE_CHANGED, onChanged);
  }, [reload]);

  const dirty = useMemo(
    () => draft !== undefined && JSON.stringify(draft) !== JSON.stringify(initial),
    [draft, initial],
  );
  useEffect(() => {
    pristine.current = !dirty && !busy;
    onDirtyChange(dirty);
  }, [dirty, busy, onDirtyChange]);
  useEffect(() => {
    if (!dirty) return;
    // Closing the tab or reloading with unsaved changes: the browser asks first.
    const guard = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [dirty]);

  if (loadError !== undefined) {
    return (
      <Alert color="red" role="alert">
        {errorText(t, loadError)}
      </Alert>
    );
  }
  if (draft === undefined || (productId !== 'new' && loaded === undefined)) {
    return <Loader aria-label={t('common.loading')} />;
  }

  const readOnly = !canEdit;
  const edit = (change: (d: Draft) => Draft) => setDraft((d) => (d ? change(d) : d));

  const refused = (error: unknown, sent: ProductSheet | Record<string, unknown>) => {
    const field = error instanceof WindowError ? fieldKeyOf(error.field, sent) : undefined;
    if (field === undefined) {
      setFormError(errorText(t, error));
      return;
    }
    setErrors({ [field]: errorText(t, error) });
    const [kind, lang] = field.split('.');
    if ((kind === 'short' || kind === 'long') && lang) setTab(lang);
  };

  const save = async (revision: string | null) => {
    setBusy(true);
    setErrors({});
    setFormError(undefined);
    setConflict(false);
    if (productId === 'new') {
      const document = createDocumentOf(draft);
      try {
        const created = await createProduct(document);
        // Saved: nothing is unsaved any more when the address moves to the new product.
        setInitial(draft);
        props.onCreated(created.sheet.product.id);
      } catch (error) {
        refused(error, document);
      } finally {
        setBusy(false);
      }
      return;
    }
    const sheet = sheetOf(loaded!.sheet, draft);
    try {
      show(await saveSheet(productId, revision, sheet));
    } catch (error) {
      if (error instanceof WindowError && error.status === 412) setConflict(true);
      else refused(error, sheet);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    setBusy(true);
    try {
      await deleteProduct(productId as number);
      setInitial(draft);
      props.onDeleted();
    } catch (error) {
      setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  const sheet = loaded?.sheet;
  const title =
    productId === 'new'
      ? t('editor.newProduct')
      : t('editor.title', { supplierPid: sheet!.product.supplierPid });
  return (
    <Stack component="section" aria-labelledby="product-editor-title" maw={1100}>
      <Group justify="space-between" wrap="wrap">
        {/* The page's heading is the catalogue's: the editor beside the grid is a section of it. */}
        <Title order={2} size="h3" id="product-editor-title">
          {title}
        </Title>
        <Group gap="xs">
          <Button
            onClick={() => void save(loaded?.revision ?? null)}
            disabled={readOnly || !dirty}
            loading={busy}
          >
            {t('editor.save')}
          </Button>
          <Button variant="default" onClick={() => initial && setDraft(initial)} disabled={!dirty || busy}>
            {t('editor.revert')}
          </Button>
          {productId !== 'new' && (
            <Button
              color="red"
              variant="light"
              onClick={() => setConfirmDelete(true)}
              disabled={readOnly || busy}
            >
              {t('editor.delete.button')}
            </Button>
          )}
          <Button variant="subtle" onClick={props.onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Group>
      {readOnly && (
        <Text size="sm" c="dimmed" role="note">
          {t('editor.readOnly')}
        </Text>
      )}
      {formError && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel={t('common.close')}
          onClose={() => setFormError(undefined)}
        >
          {formError}
        </Alert>
      )}
      <ProductFields
        fields={draft.fields}
        errors={errors}
        readOnly={readOnly}
        onChange={(key, value) => edit((d) => ({ ...d, fields: { ...d.fields, [key]: value } }))}
      />
      <ProductGroupField
        group={draft.group}
        readOnly={readOnly}
        onChange={(group) => edit((d) => ({ ...d, group }))}
      />
      <Divider />
      <ProductTexts
        draft={draft}
        tab={tab}
        errors={errors}
        readOnly={readOnly}
        onTab={setTab}
        onText={(kind, lang, value) => edit((d) => ({ ...d, [kind]: { ...d[kind], [lang]: value } }))}
        onAddLanguage={(lang) => {
          edit((d) => ({ ...d, languages: [...d.languages, lang] }));
          setTab(lang);
        }}
        onRemoveLanguage={(lang) =>
          edit((d) => {
            const { [lang]: _short, ...shortTexts } = d.shortTexts;
            const { [lang]: _long, ...longTexts } = d.longTexts;
            return { ...d, languages: d.languages.filter((l) => l !== lang), shortTexts, longTexts };
          })
        }
      />
      <Divider />
      <ProductFeatures
        features={draft.features}
        languages={featureLanguages(draft)}
        errors={errors}
        readOnly={readOnly}
        onChange={(features) => edit((d) => ({ ...d, features }))}
      />
      {sheet && (
        <>
          <Divider />
          <ProductVariants
            sheet={sheet}
            canCreate={canEdit && !dirty}
            onOpenProduct={props.onOpenProduct}
            onVariantCreated={() => void reload()}
          />
        </>
      )}
      <ConflictDialog
        opened={conflict}
        onCancel={() => setConflict(false)}
        onReload={() => {
          setConflict(false);
          void reload();
        }}
        onOverwrite={() => void save(null)}
      />
      {sheet && (
        <DeleteDialog
          opened={confirmDelete}
          supplierPid={sheet.product.supplierPid}
          variants={sheet.variants.length}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => void remove()}
        />
      )}
    </Stack>
  );
}
