import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable } from '../common.schemas.js';
import { FEATURE_VALUES_MAX, FUNIT_MAX } from '../features/feature.rules.js';
import { Ftidref } from '../features/feature.schemas.js';
import { ProductSelection } from '../products/product-selection.schemas.js';
import { LanguageValue } from '../texts/text.schemas.js';
import { TEXT_VALUE_MAX } from '../texts/text.rules.js';
import { LanguageCode } from '../common.schemas.js';

/**
 * A mass edit: one action on every product of a selection (issue 36), run as a job
 * (POST /api/product/mass-edit, the MCP tool mass_edit, the window's dialog). One schema for
 * validation, OpenAPI, the tool's input and the window's types.
 */

const SetText = Type.Object(
  {
    setText: Type.Object(
      {
        kind: Type.Union([Type.Literal('short'), Type.Literal('long')]),
        lang: LanguageCode,
        value: Type.String({ maxLength: TEXT_VALUE_MAX, description: 'Stored exactly as sent' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: 'Sets (creates or replaces) a short or long text in one language',
  },
);

const SetFeature = Type.Object(
  {
    setFeature: Type.Object(
      {
        ftidref: Ftidref,
        funit: Type.Optional(
          Nullable(
            Type.String({
              maxLength: FUNIT_MAX,
              description: "When sent, replaces the unit; null falls back to the definition's default unit",
            }),
          ),
        ),
        values: Type.Array(LanguageValue, {
          maxItems: FEATURE_VALUES_MAX,
          description: 'Values per language; the languages named are set, the others keep theirs',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Sets a feature's values (and unit) per language, adding the feature where a product lacks it",
  },
);

const RemoveFeature = Type.Object(
  { removeFeature: Type.Object({ ftidref: Ftidref }, { additionalProperties: false }) },
  { additionalProperties: false, description: 'Removes the feature (all its values) where a product has it' },
);

const AssignGroup = Type.Object(
  { assignGroup: Type.Object({ groupId: Id }, { additionalProperties: false }) },
  { additionalProperties: false, description: 'Puts every product into the group (database id)' },
);

const UnassignGroup = Type.Object(
  { unassignGroup: Type.Object({}, { additionalProperties: false }) },
  { additionalProperties: false, description: 'Takes every product out of its group' },
);

const DeleteProducts = Type.Object(
  { delete: Type.Object({}, { additionalProperties: false }) },
  { additionalProperties: false, description: 'Deletes every product, with its variants' },
);

export const MassEditAction = Type.Union(
  [SetText, SetFeature, RemoveFeature, AssignGroup, UnassignGroup, DeleteProducts],
  {
    title: 'MassEditAction',
    description: 'Exactly one of setText, setFeature, removeFeature, assignGroup, unassignGroup, delete',
  },
);

export const MassEditRequest = Type.Object(
  {
    select: ProductSelection,
    action: MassEditAction,
    dryRun: Type.Optional(
      Type.Boolean({
        description: 'Answer the count and a preview instead of starting the job (nothing is written)',
      }),
    ),
  },
  {
    title: 'MassEditRequest',
    additionalProperties: false,
    examples: [
      {
        select: { groupId: 3, includeSubgroups: true },
        action: {
          setFeature: {
            ftidref: '0173-1#02-AAF040#004',
            funit: 'mm',
            values: [{ lang: 'deu', value: '12' }],
          },
        },
      },
      {
        select: { ids: [12, 13] },
        action: { setText: { kind: 'short', lang: 'deu', value: 'Neu' } },
        dryRun: true,
      },
    ],
  },
);

export type MassEditActionValue = Static<typeof MassEditAction>;
export type MassEditRequestValue = Static<typeof MassEditRequest>;

/** The names of the actions, as the report and the undo table name them. */
export const MASS_EDIT_ACTIONS = [
  'setText',
  'setFeature',
  'removeFeature',
  'assignGroup',
  'unassignGroup',
  'delete',
] as const;
export type MassEditActionName = (typeof MASS_EDIT_ACTIONS)[number];

const FeaturePart = Type.Object(
  {
    funit: Nullable(
      Type.String({ description: "The unit (the definition's default where the product sets none)" }),
    ),
    values: Type.Array(LanguageValue, { description: 'The values per language' }),
  },
  { additionalProperties: false, description: 'A feature of the product: its unit and values' },
);

const GroupPart = Type.Object(
  {
    id: Id,
    name: Type.String({ description: 'The group name (request language, else the default, else the first)' }),
  },
  { additionalProperties: false, description: "The product's group" },
);

const DeletePart = Type.Object(
  {
    deleted: Type.Boolean({ description: 'false before, true after' }),
    variants: Type.Integer({ minimum: 0, description: 'Its variants, deleted with it' }),
  },
  { additionalProperties: false, description: 'A delete: the product and its variant count' },
);

/** What the action changes of one product, before or after: exactly that part, or null for none. */
const PreviewPart = Type.Union([Type.String(), FeaturePart, GroupPart, DeletePart, Type.Null()], {
  description:
    'The part the action changes: the text value (setText), the feature (setFeature, removeFeature), the ' +
    'group (assignGroup, unassignGroup), or the product with its variant count (delete); null where there is none',
});

export const MassEditPreviewItem = Type.Object(
  {
    id: Id,
    supplierPid: Type.String(),
    before: PreviewPart,
    after: PreviewPart,
    changes: Type.Boolean({
      description: 'Whether the action changes this product (false: it is left untouched)',
    }),
  },
  { title: 'MassEditPreviewItem', additionalProperties: false },
);

export const MASS_EDIT_PREVIEW_ITEMS = 5;

export const MassEditPreview = Type.Object(
  {
    count: Type.Integer({
      minimum: 0,
      description: 'The products the selection names (variants included when asked)',
    }),
    variants: Type.Integer({
      minimum: 0,
      description:
        'delete: the variants it takes with it that the selection does not name; 0 for other actions',
    }),
    items: Type.Array(MassEditPreviewItem, {
      maxItems: MASS_EDIT_PREVIEW_ITEMS,
      description: 'The first 5 products in id order, before and after',
    }),
  },
  {
    title: 'MassEditPreview',
    additionalProperties: false,
    description: 'The answer to dryRun: nothing was written',
  },
);

/** Ids compressed as ranges: [[from, to], …], each inclusive, ascending. */
export const IdRanges = Type.Array(Type.Tuple([Id, Id]), {
  description: 'Product ids as inclusive ranges [from, to], ascending: [[3, 5], [9, 9]] is 3, 4, 5 and 9',
});

export const MassEditReport = Type.Object(
  {
    action: Type.Union(
      MASS_EDIT_ACTIONS.map((name) => Type.Literal(name)),
      { description: 'The action run' },
    ),
    selected: Type.Integer({
      minimum: 0,
      description: 'The products the selection named when the job started',
    }),
    changed: Type.Integer({ minimum: 0, description: 'Products changed (and committed)' }),
    changedIds: IdRanges,
    unchanged: Type.Integer({
      minimum: 0,
      description: 'Products the action left as they were (the value was already so); not touched',
    }),
    missing: Type.Integer({
      minimum: 0,
      description: 'Products of the selection that were gone (deleted by someone else) when their turn came',
    }),
    variantsDeleted: Type.Integer({ minimum: 0, description: 'delete: variants deleted with the products' }),
    partial: Type.Boolean({
      description:
        'true when the job was cancelled or failed halfway: the chunks committed before stay, exactly the ' +
        'products in changedIds; the rest was not touched',
    }),
    undoable: Type.Boolean({ description: 'Whether POST /api/job/{id}/undo can restore what was written' }),
  },
  {
    title: 'MassEditReport',
    additionalProperties: false,
    description:
      'What a mass edit wrote. It works in chunks of 1,000 products, each committed on its own: a cancelled or ' +
      'failed job keeps the chunks before, and its report (partial: true) names them exactly; undo restores them',
  },
);

export const UndoSkipped = Type.Object(
  {
    id: Id,
    supplierPid: Type.String(),
    reason: Type.String({ description: 'Why it was left alone' }),
  },
  { title: 'UndoSkipped', additionalProperties: false },
);

export const MassEditUndoReport = Type.Object(
  {
    massEditJobId: Id,
    restored: Type.Integer({ minimum: 0, description: 'Products restored to their state before the edit' }),
    restoredIds: IdRanges,
    skipped: Type.Array(UndoSkipped, {
      description:
        'Products left alone: changed by someone else since the edit (or, for a delete, a supplierPid taken ' +
        'since); the first 1,000 are named',
    }),
    skippedCount: Type.Integer({ minimum: 0, description: 'Products left alone, all of them' }),
    lost: Type.Array(Type.String(), {
      description: 'What could not be restored as it was (a group deleted meanwhile), one sentence each',
    }),
    partial: Type.Boolean({
      description: 'true when the undo was cancelled or failed halfway: run it again to restore the rest',
    }),
  },
  { title: 'MassEditUndoReport', additionalProperties: false },
);

export type MassEditPreviewValue = Static<typeof MassEditPreview>;
export type MassEditPreviewItemValue = Static<typeof MassEditPreviewItem>;
export type MassEditReportValue = Static<typeof MassEditReport>;
export type MassEditUndoReportValue = Static<typeof MassEditUndoReport>;
export type UndoSkippedValue = Static<typeof UndoSkipped>;
