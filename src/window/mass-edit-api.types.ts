/**
 * The JSON of the window's mass edit endpoints (src/window/routes/mass-edit.routes.ts) and of a mass
 * edit's or its undo's job report, shared with the front end (src/ui imports these types only). The
 * route checks at compile time that the domain's shapes (domain/mass-edit/mass-edit.schemas.ts) fit.
 */

export type MassEditActionView =
  | { setText: { kind: 'short' | 'long'; lang: string; value: string } }
  | { setFeature: { ftidref: string; funit?: string | null; values: { lang: string; value: string }[] } }
  | { removeFeature: { ftidref: string } }
  | { assignGroup: { groupId: number } }
  | { unassignGroup: Record<string, never> }
  | { delete: Record<string, never> };

/** The grid's filters (as the rows endpoint takes them) or the ids picked, and the variants' choice. */
export interface SelectionView {
  ids?: number[];
  q?: string;
  groupId?: number;
  includeSubgroups?: boolean;
  mainOnly?: boolean;
  updatedSince?: string;
  textLang?: string;
  text?: 'has' | 'lacks';
  ftidref?: string;
  feature?: 'has' | 'lacks';
  includeVariants?: boolean;
}

export interface MassEditRequestView {
  select: SelectionView;
  action: MassEditActionView;
  dryRun?: boolean;
}

/** The part of a product the action changes, before or after. */
export type PreviewPartView =
  | string
  | { funit: string | null; values: { lang: string; value: string }[] }
  | { id: number; name: string }
  | { deleted: boolean; variants: number }
  | null;

export interface MassEditPreviewView {
  count: number;
  variants: number;
  items: {
    id: number;
    supplierPid: string;
    before: PreviewPartView;
    after: PreviewPartView;
    changes: boolean;
  }[];
}

export interface MassEditReportView {
  action: 'setText' | 'setFeature' | 'removeFeature' | 'assignGroup' | 'unassignGroup' | 'delete';
  selected: number;
  changed: number;
  changedIds: [number, number][];
  unchanged: number;
  missing: number;
  variantsDeleted: number;
  partial: boolean;
  undoable: boolean;
}

export interface MassEditUndoReportView {
  massEditJobId: number;
  restored: number;
  restoredIds: [number, number][];
  skipped: { id: number; supplierPid: string; reason: string }[];
  skippedCount: number;
  lost: string[];
  partial: boolean;
}
