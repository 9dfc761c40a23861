import { SHEET_FIELDS } from '../../../src/db/catalogue/product-fields.js';
import type { NodeDto } from '../../helpers/group-dto.js';
import { nameOf, sortedEntries, type MGroup, type Model, type MProduct } from './model.js';

/** What REST and the tools must answer for the model: products, groups, features, sheets, the tree. */

export function expectedProductDto(model: Model, p: MProduct) {
  return {
    id: p.id,
    supplierPid: p.supplierPid,
    supplierIdRef: p.supplierIdRef,
    name: nameOf(p),
    ean: p.ean,
    manufacturerPid: p.manufacturerPid,
    masterProduct: p.master === null,
    variantCount: p.master === null ? model.variantsOf(p.id).length : 0,
    masterProductId: p.master,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function expectedGroupDto(model: Model, g: MGroup) {
  return {
    id: g.id,
    groupId: g.groupId,
    name: g.name,
    parentGroupId: g.parent,
    childGroupCount: model.groupList().filter((c) => c.parent === g.id).length,
    productCount: [...model.products.values()].filter((p) => p.group === g.id).length,
    createdAt: g.createdAt,
    updatedAt: g.updatedAt,
  };
}

export function expectedFeatures(p: MProduct) {
  return p.features.map((f) => ({
    ftidref: f.ftidref,
    funit: f.funit,
    names: [],
    values: sortedEntries(f.values),
  }));
}

export function expectedSheet(model: Model, p: MProduct) {
  const group = p.group === null ? undefined : model.groups.get(p.group);
  return {
    product: expectedProductDto(model, p),
    shortTexts: sortedEntries(p.texts.short),
    longTexts: sortedEntries(p.texts.long),
    // The tools the sequences call set one occurrence per ftidref and none of the model's other parts.
    features: expectedFeatures(p).map((f) => ({ ...f, details: null })),
    group: group ? { id: group.id, groupId: group.groupId, name: group.name } : null,
    groups: group ? [{ id: group.id, groupId: group.groupId, name: group.name, catalogGroupId: null }] : [],
    ...Object.fromEntries(SHEET_FIELDS.map((f) => [f.key, null])),
    keywords: [],
    media: [],
    fragments: [],
    variants:
      p.master === null
        ? model.variantsOf(p.id).map((v) => ({ id: v.id, supplierPid: v.supplierPid, name: nameOf(v) }))
        : [],
  };
}

export function expectedTree(model: Model): NodeDto {
  const products = [...model.products.values()];
  const node = (g: MGroup): NodeDto => ({
    id: g.id,
    groupId: g.groupId,
    name: g.name,
    productCount: products.filter((p) => p.group === g.id).length,
    children: childrenOf(g.id),
  });
  const childrenOf = (parent: number | null): NodeDto[] =>
    model
      .groupList()
      .filter((g) => g.parent === parent)
      .map(node);
  return {
    id: 0,
    groupId: '0',
    name: model.workspaceName,
    productCount: products.filter((p) => p.group === null).length,
    children: childrenOf(null),
  };
}
