import { Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  MassEditActionView,
  MassEditPreviewView,
  MassEditRequestView,
  PreviewPartView,
  SelectionView,
} from '../../../window/mass-edit-api.types.js';
import { api } from '../../api.js';
import { errorText } from '../../error-text.js';
import { receiveJob, type WindowJob } from '../../jobs.js';
import { useFocusOnMount } from '../../use-focus-on-mount.js';
import { actionOf, initialFields, MassEditForm, type MassEditFields } from './mass-edit-form.js';
import { MassEditJob } from './mass-edit-job.js';

type Phase =
  | { step: 'form' }
  | { step: 'preview'; action: MassEditActionView; preview: MassEditPreviewView }
  | { step: 'job'; id: number };

/**
 * The grid's mass edit: one action on the selection (picked rows, or every product the grid's
 * filters match, which the server resolves), then the preview (the dry run: the count and the
 * first products before and after), then the job with its progress, report and Undo.
 */
export function MassEditDialog({
  opened,
  onClose,
  select,
  size,
}: {
  opened: boolean;
  onClose: () => void;
  select: SelectionView;
  /** The products the grid says are selected (the preview counts them again on the server). */
  size: number;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('massEdit.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <MassEditBody select={select} size={size} onClose={onClose} />
    </Modal>
  );
}

function MassEditBody({
  select,
  size,
  onClose,
}: {
  select: SelectionView;
  size: number;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [fields, setFields] = useState<MassEditFields>(() => initialFields(i18n.language));
  const send = useMutation({
    mutationFn: (request: MassEditRequestView) =>
      api<MassEditPreviewView | WindowJob>('POST', '/mass-edit', request),
  });
  const action = actionOf(fields);
  const preview = () =>
    action &&
    send.mutate(
      { select, action, dryRun: true },
      {
        onSuccess: (answer) => setPhase({ step: 'preview', action, preview: answer as MassEditPreviewView }),
      },
    );
  const run = (chosen: MassEditActionView) =>
    send.mutate(
      { select, action: chosen },
      {
        onSuccess: (answer) => {
          receiveJob(queryClient, answer as WindowJob);
          setPhase({ step: 'job', id: (answer as WindowJob).id });
        },
      },
    );
  const failure = send.error && (
    <Alert color="red" role="alert">
      {errorText(t, send.error)}
    </Alert>
  );

  if (phase.step === 'job') return <MassEditJob jobId={phase.id} onClose={onClose} />;
  if (phase.step === 'preview')
    return (
      <PreviewStep
        action={phase.action}
        preview={phase.preview}
        pending={send.isPending}
        failure={failure}
        onBack={() => {
          send.reset();
          setPhase({ step: 'form' });
        }}
        onRun={() => run(phase.action)}
      />
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        preview();
      }}
    >
      <Stack>
        <Text data-testid="mass-edit-selection">
          {select.ids
            ? t('massEdit.selectedIds', { count: size, formatted: size.toLocaleString(i18n.language) })
            : t('massEdit.selectedAll', { count: size, formatted: size.toLocaleString(i18n.language) })}
          {select.includeVariants ? ` ${t('massEdit.withVariants')}` : ''}
        </Text>
        {failure}
        <MassEditForm fields={fields} onChange={setFields} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" disabled={!action} loading={send.isPending}>
            {t('massEdit.preview')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PreviewStep({
  action,
  preview,
  pending,
  failure,
  onBack,
  onRun,
}: {
  action: MassEditActionView;
  preview: MassEditPreviewView;
  pending: boolean;
  failure: React.ReactNode;
  onBack: () => void;
  onRun: () => void;
}) {
  const { t, i18n } = useTranslation();
  const runButton = useFocusOnMount<HTMLButtonElement>();
  const deleting = 'delete' in action;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Stack data-testid="mass-edit-preview">
      {deleting ? (
        <Alert color="red" data-testid="mass-edit-delete-warning">
          <Text size="sm" fw={700}>
            {t('massEdit.deleteWarning', {
              count: preview.count,
              products: number(preview.count),
              variants: number(preview.variants),
            })}
          </Text>
          <Text size="sm">{t('massEdit.deleteUndo')}</Text>
        </Alert>
      ) : (
        <Text data-testid="mass-edit-count">
          {t('massEdit.willChange', { count: preview.count, formatted: number(preview.count) })}
        </Text>
      )}
      {preview.items.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <Table withTableBorder captionSide="top" data-testid="mass-edit-items">
            <Table.Caption>{t('massEdit.previewCaption', { count: preview.items.length })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('massEdit.product')}</Table.Th>
                <Table.Th>{t('massEdit.before')}</Table.Th>
                <Table.Th>{t('massEdit.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.supplierPid}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{partText(t, item.before)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {item.changes ? partText(t, item.after) : t('massEdit.unchanged')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {failure}
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          {t('massEdit.back')}
        </Button>
        <Button
          ref={runButton}
          color={deleting ? 'red' : undefined}
          onClick={onRun}
          loading={pending}
          disabled={preview.count === 0}
        >
          {deleting
            ? t('massEdit.runDelete', { count: preview.count, formatted: number(preview.count) })
            : t('massEdit.run', { count: preview.count, formatted: number(preview.count) })}
        </Button>
      </Group>
    </Stack>
  );
}

/** A preview's part in a line: the text, the feature's values and unit, the group, or a deletion. */
function partText(
  t: (key: string, options?: Record<string, unknown>) => string,
  part: PreviewPartView,
): string {
  if (part === null) return t('massEdit.none');
  if (typeof part === 'string') return part === '' ? t('massEdit.empty') : part;
  if ('values' in part) {
    const values = part.values.map((v) => `${v.value} [${v.lang}]`).join(', ');
    return part.funit ? `${values} (${part.funit})` : values;
  }
  if ('name' in part) return part.name;
  return part.deleted
    ? t('massEdit.deleted', { count: part.variants })
    : t('massEdit.present', { count: part.variants });
}
