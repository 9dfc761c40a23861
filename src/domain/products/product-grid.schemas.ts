import { Type, type Static } from '@sinclair/typebox';
import { Id, LanguageCode } from '../common.schemas.js';
import { FILTER_VALUE_MAX } from './product.filter.js';

export const GRID_LIMIT_MAX = 500;
export const GRID_LIMIT_DEFAULT = 100;

const Presence = Type.Union([Type.Literal('has'), Type.Literal('lacks')]);

/** The grid's filters, sort and name language (GET /ui/api/products/count). */
export const GridCountQuery = Type.Object(
  {
    sort: Type.Optional(
      Type.Union([
        Type.Literal('supplierPid'),
        Type.Literal('name'),
        Type.Literal('updated'),
        Type.Literal('id'),
      ]),
    ),
    dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    q: Type.Optional(Type.String({ maxLength: FILTER_VALUE_MAX })),
    groupId: Type.Optional(Id),
    subgroups: Type.Optional(Type.Boolean()),
    main: Type.Optional(Type.Boolean()),
    updatedSince: Type.Optional(Type.String({ maxLength: FILTER_VALUE_MAX })),
    textLang: Type.Optional(LanguageCode),
    text: Type.Optional(Presence),
    ftidref: Type.Optional(Type.String({ minLength: 1, maxLength: FILTER_VALUE_MAX })),
    feature: Type.Optional(Presence),
    lang: Type.Optional(LanguageCode),
  },
  { additionalProperties: false },
);

/** The grid's page of rows (GET /ui/api/products/rows): the filters, a page size and where it starts. */
export const GridRowsQuery = Type.Object(
  {
    ...GridCountQuery.properties,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: GRID_LIMIT_MAX })),
    // A name key is at most 200 characters (up to 800 UTF-8 bytes), base64url with the id.
    after: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    at: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  },
  { additionalProperties: false },
);

export type GridCountFilter = Static<typeof GridCountQuery>;
export type GridRowsFilter = Static<typeof GridRowsQuery>;
