import { Type, type Static } from '@sinclair/typebox';
import { Id, LanguageCode } from '../common.schemas.js';
import { FILTER_VALUE_MAX } from './product.filter.js';

/** The most ids a selection may name one by one (the grid's "all matching" sends its filters instead). */
export const SELECTION_IDS_MAX = 100_000;

const Presence = Type.Union([Type.Literal('has'), Type.Literal('lacks')]);

/**
 * Which products a mass edit or a spreadsheet export works on: the ids the user picked, or the
 * grid's filters (every product they match; `{}` is every product), resolved on the server.
 * `includeVariants` adds the variants of the selected main products, whether picked or matched or not.
 */
export const ProductSelection = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: SELECTION_IDS_MAX,
        description: 'The products picked one by one; not with the filters',
      }),
    ),
    q: Type.Optional(
      Type.String({ maxLength: FILTER_VALUE_MAX, description: 'Search in supplierPid and short texts' }),
    ),
    groupId: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Products in this group (its database id)' }),
    ),
    includeSubgroups: Type.Optional(
      Type.Boolean({ description: 'With groupId: the products of its subgroups too' }),
    ),
    mainOnly: Type.Optional(
      Type.Boolean({ description: 'Main products only (no variant matches by itself)' }),
    ),
    updatedSince: Type.Optional(
      Type.String({
        maxLength: FILTER_VALUE_MAX,
        description: 'Changed at or after this instant (ISO 8601)',
      }),
    ),
    textLang: Type.Optional(LanguageCode),
    text: Type.Optional(Presence),
    ftidref: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_VALUE_MAX })),
    feature: Type.Optional(Presence),
    includeVariants: Type.Optional(
      Type.Boolean({ description: 'Also the variants of every selected main product (default false)' }),
    ),
  },
  {
    title: 'ProductSelection',
    additionalProperties: false,
    description:
      "The products to work on: `ids`, or the product grid's filters (`{}` selects every product). " +
      'text needs textLang, feature needs ftidref, includeSubgroups needs groupId',
  },
);

export type ProductSelectionValue = Static<typeof ProductSelection>;
