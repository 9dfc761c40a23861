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
