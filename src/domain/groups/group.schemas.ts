import { Type, type Static } from '@sinclair/typebox';
import {
  ASSIGN_PRODUCTS_MAX,
  GROUP_NAME_MAX,
  GROUP_NAME_MIN,
  type ProductGroupDto as ProductGroupDtoType,
  type ProductGroupNodeDto as ProductGroupNodeDtoType,
} from './group.types.js';
import { Id, LanguageCode, Nullable } from '../common.schemas.js';
import { BLANK_NAME_PATTERN, NOT_BLANK_RULE } from '../names.js';

export const ProductGroupDto = Type.Object(
  {
    id: Type.Integer({ description: 'Database key of the group, used in URLs' }),
    groupId: Type.String({
      description:
        'Hierarchical BMEcat id: root-level groups 1, 2, 3 in order of creation, children of 2 are 2.1, 2.2. ' +
        'Informational only, never used in URLs. Renumbered when the group or an ancestor moves; never reused.',
      examples: ['2.1'],
    }),
    name: Type.String({
      description:
        'Name in the language asked for (`language` of the request, else `?lang=`), else in the workspace ' +
        'default language, else the first name by language code, else ""',
    }),
    parentGroupId: Nullable(Type.Integer({ description: 'Database key of the parent; null at root level' })),
    childGroupCount: Type.Integer({ minimum: 0, description: 'Number of direct child groups' }),
    productCount: Type.Integer({
      minimum: 0,
      description: 'Number of products directly in the group (main products and variants alike)',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601, UTC' }),
    updatedAt: Type.String({
      format: 'date-time',
      description:
        "ISO 8601, UTC. Touched when the group's name, parent or groupId changes (not by changes of its products)",
    }),
  },
  { title: 'ProductGroupDto', additionalProperties: false },
);

const NODE_ID = 'ProductGroupNodeDto';

export const ProductGroupNodeDto = Type.Recursive(
  (Node) =>
    Type.Object(
      {
        id: Type.Integer({ description: 'Database key; 0 for the root node that stands for the workspace' }),
        groupId: Type.String({ description: 'Hierarchical BMEcat id; "0" for the root node' }),
        name: Type.String({
          description: 'Group name (see ProductGroupDto.name); the workspace name at the root',
        }),
        productCount: Type.Integer({
          minimum: 0,
          description: 'Products directly in the group; at the root: products without a group',
        }),
        children: Type.Array(Node, { description: 'Child groups, ordered by id' }),
      },
      { additionalProperties: false },
    ),
  { $id: NODE_ID },
);

const GroupName = Type.String({
  pattern: BLANK_NAME_PATTERN,
  maxLength: GROUP_NAME_MAX,
  description: `Group name, ${GROUP_NAME_MIN} to ${GROUP_NAME_MAX} characters, ${NOT_BLANK_RULE}`,
});

const NameLanguage = Type.Optional(
  Type.Unsafe<string>({
    ...LanguageCode,
    description: `Language of name (ISO 639-2); default: the workspace's default language. ${LanguageCode.description}`,
  }),
);

export const CreateGroupRequest = Type.Object(
  {
    name: GroupName,
    language: NameLanguage,
    parentId: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Parent group (database key); absent or null: root level',
        }),
      ),
    ),
  },
  {
    title: 'CreateGroupRequest',
    additionalProperties: false,
    examples: [{ name: 'Elektrowerkzeuge' }, { name: 'Power tools', language: 'eng', parentId: 1 }],
  },
);

export const RenameGroupRequest = Type.Object(
  { name: GroupName, language: NameLanguage },
  {
    title: 'RenameGroupRequest',
    additionalProperties: false,
    description: 'Sets the name in one language; names in other languages stay',
    examples: [{ name: 'Akkuwerkzeuge' }, { name: 'Cordless tools', language: 'eng' }],
  },
);

export const MoveGroupRequest = Type.Object(
  {
    parentId: Nullable(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'New parent group (database key); null moves the group to the root level',
      }),
    ),
  },
  { title: 'MoveGroupRequest', additionalProperties: false, examples: [{ parentId: 3 }, { parentId: null }] },
);

export const AssignProductsRequest = Type.Object(
  {
    productIds: Type.Array(Id, {
      maxItems: ASSIGN_PRODUCTS_MAX,
      description: `Products to put into the group (database keys), at most ${ASSIGN_PRODUCTS_MAX}; duplicates count once`,
    }),
  },
  {
    title: 'AssignProductsRequest',
    additionalProperties: false,
    examples: [{ productIds: [12, 13, 14] }, { productIds: [42] }],
  },
);

export const GroupLangQuery = Type.Object(
  {
    lang: Type.Optional(
      Type.Unsafe<string>({
        ...LanguageCode,
        description: `Language of the names returned. ${LanguageCode.description}`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeleteGroupQuery = Type.Object(
  {
    deleteProducts: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'false (default): the products of the deleted groups are only ungrouped; true: they are deleted too, ' +
          'with their variants',
      }),
    ),
  },
  { additionalProperties: false },
);

export const GroupProductParams = Type.Object({ id: Id, productId: Id }, { additionalProperties: false });

// The TypeBox schemas and the domain's types describe the same objects: these lines fail to compile if they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const groupDtoMatches: Same<Static<typeof ProductGroupDto>, ProductGroupDtoType> = true;
const nodeDtoMatches: Same<Static<typeof ProductGroupNodeDto>, ProductGroupNodeDtoType> = true;
void groupDtoMatches;
void nodeDtoMatches;
