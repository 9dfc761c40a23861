import type { TextKind } from '../../db/workspace.schema.js';
import { atField, ValidationError } from '../errors.js';
import { checkFtidref, checkFunit, normalizeFeatureValues } from '../features/feature.rules.js';
import { normalizeLanguage } from '../languages/language.js';
import type { TextEntry } from '../texts/text.repository.js';
import { checkTextValue } from '../texts/text.rules.js';
import type { MassEditActionName, MassEditActionValue } from './mass-edit.schemas.js';

/** A mass edit's action, checked and normalised (languages in their stored form): what the chunks run. */
export type MassEditPlan =
  | { name: 'setText'; kind: TextKind; lang: string; value: string }
  | { name: 'setFeature'; ftidref: string; funit: string | null | undefined; values: TextEntry[] }
  | { name: 'removeFeature'; ftidref: string }
  | { name: 'assignGroup'; groupId: number }
  | { name: 'unassignGroup' }
  | { name: 'delete' };

const KINDS: Record<string, TextKind> = { short: 'DESCRIPTIONSHORT', long: 'DESCRIPTIONLONG' };

/**
 * The plan of an action, with the single edits' rules (the same functions), so that a bad request
 * is refused before any job starts. The schema already allows one action only; this checks it
 * again for callers that bypass it (the services are called directly by tests and the window).
 */
export function planOf(action: MassEditActionValue): MassEditPlan {
  const names = Object.keys(action ?? {});
  if (names.length !== 1) {
    throw atField(
      new ValidationError(
        'action must name exactly one of setText, setFeature, removeFeature, assignGroup, unassignGroup, delete',
      ),
      'action',
    );
  }
  if ('setText' in action) {
    const { kind, lang, value } = action.setText;
    const stored = KINDS[kind];
    if (stored === undefined)
      throw atField(new ValidationError('kind must be short or long'), 'action.setText.kind');
    checkTextValue(value, 'action.setText.value');
    return { name: 'setText', kind: stored, lang: normalizeLanguage(lang, 'action.setText.lang'), value };
  }
  if ('setFeature' in action) {
    const { ftidref, funit, values } = action.setFeature;
    checkFtidref(ftidref, 'action.setFeature.ftidref');
    checkFunit(funit, 'action.setFeature.funit');
    return { name: 'setFeature', ftidref, funit, values: normalizeFeatureValues(values) };
  }
  if ('removeFeature' in action) {
    checkFtidref(action.removeFeature.ftidref, 'action.removeFeature.ftidref');
    return { name: 'removeFeature', ftidref: action.removeFeature.ftidref };
  }
  if ('assignGroup' in action) return { name: 'assignGroup', groupId: action.assignGroup.groupId };
  if ('unassignGroup' in action) return { name: 'unassignGroup' };
  if ('delete' in action) return { name: 'delete' };
  throw atField(new ValidationError(`action ${names[0]} is not a mass edit action`), 'action');
}

export function actionName(plan: MassEditPlan): MassEditActionName {
  return plan.name;
}
