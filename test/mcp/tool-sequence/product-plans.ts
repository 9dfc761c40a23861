import { expect } from 'vitest';
import type { CommandOf, Details, NameSpec } from './commands.js';
import {
  BAD_LANGS,
  DEFAULT_LANG,
  newProduct,
  setFeatureIn,
  stored,
  type Entry,
  type FeatureSpec,
  type Model,
  type MProduct,
} from './model.js';
import { UNKNOWN_ID, at, firstError, spoilEntries, withoutUndefined } from './plan-helpers.js';
import type { Planned } from './plan.js';

/** Planning the product calls: create_product, update_product, delete_product. */

interface SpoiledDetails {
  shortTexts: Entry[];
  longTexts: Entry[];
  features: FeatureSpec[];
}

/** Texts and features as sent, with the fault (if it concerns them) built in. */
function detailsFor(cmd: Details, fault: string, pickIndex: number): SpoiledDetails {
  let { shortTexts, longTexts, features } = cmd;
  if (fault === 'badTextLang') {
    if (pickIndex % 2 === 0) shortTexts = spoilEntries(shortTexts, 'badLang', pickIndex);
    else longTexts = spoilEntries(longTexts, 'badLang', pickIndex);
  }
  if (fault === 'dupTextLang') {
    if (pickIndex % 2 === 0) shortTexts = spoilEntries(shortTexts, 'dupLang', pickIndex);
    else longTexts = spoilEntries(longTexts, 'dupLang', pickIndex);
  }
  if (fault === 'badFeatureLang') {
    // In the last feature, so that texts and the other features are written before it fails.
    const bad = { lang: at(BAD_LANGS, pickIndex)!, value: 'x' };
    const last = features[features.length - 1];
    features = last
      ? [...features.slice(0, -1), { ...last, values: [...last.values, bad] }]
      : [{ ftidref: 'F1', values: [{ lang: 'eng', value: 'ok' }, bad] }];
  }
  if (fault === 'dupFtidref') {
    const first = features[0] ?? { ftidref: 'F1', values: [] };
    features = [...(features.length ? features : [first]), { ftidref: first.ftidref, values: [] }];
  }
  return { shortTexts, longTexts, features };
}

function writeDetails(p: MProduct, details: SpoiledDetails): void {
  for (const { lang, value } of details.shortTexts) p.texts.short.set(stored(lang), value);
  for (const { lang, value } of details.longTexts) p.texts.long.set(stored(lang), value);
  for (const feature of details.features) setFeatureIn(p, feature);
}

function nameArgs(name: NameSpec | undefined, fault: string, pickIndex: number): Record<string, unknown> {
  if (fault === 'badNameLang') return { name: name?.value ?? 'Name', language: at(BAD_LANGS, pickIndex) };
  return name ? withoutUndefined({ name: name.value, language: name.language }) : {};
}

function writeName(p: MProduct, name: NameSpec | undefined): void {
  if (name) p.texts.short.set(name.language === undefined ? DEFAULT_LANG : stored(name.language), name.value);
}

export function planCreateProduct(model: Model, cmd: CommandOf<'create_product'>, now: string): Planned {
  const products = model.productList();
  const variantOfVariant = cmd.fault === 'variantOfVariant' ? at(model.variants(), cmd.pick) : undefined;
  const master = variantOfVariant ?? (cmd.variantOf === null ? undefined : at(model.mains(), cmd.variantOf));
  const masterId = cmd.fault === 'unknownMaster' ? UNKNOWN_ID : master?.id;
  const dupOf = cmd.fault === 'dupPid' ? at(products, cmd.pick) : undefined;
  const supplierPid = dupOf?.supplierPid ?? model.freshPid();
  const group = at(model.groupList(), cmd.group);
  const groupId = cmd.fault === 'unknownGroup' ? UNKNOWN_ID : group?.id;
  const details = detailsFor(cmd, cmd.fault, cmd.pick);
  const basic = withoutUndefined({
    supplierPid,
    masterProductId: masterId,
    ean: cmd.ean,
    ...nameArgs(cmd.name, cmd.fault, cmd.pick),
  });
  const args = withoutUndefined({
    ...basic,
    shortTexts: details.shortTexts,
    longTexts: details.longTexts,
    features: details.features,
    groupId,
  });
  const expected = firstError([
    [cmd.fault === 'dupFtidref', 'VALIDATION_FAILED'],
    [cmd.fault === 'badTextLang', 'INVALID_LANGUAGE'],
    [cmd.fault === 'dupTextLang', 'VALIDATION_FAILED'],
    [cmd.fault === 'badNameLang', 'INVALID_LANGUAGE'],
    [masterId === UNKNOWN_ID, 'PRODUCT_NOT_FOUND'],
    [variantOfVariant !== undefined, 'VARIANT_OF_VARIANT'],
    [dupOf !== undefined, 'SUPPLIER_PID_TAKEN'],
    [cmd.fault === 'badFeatureLang', 'INVALID_LANGUAGE'],
    [groupId === UNKNOWN_ID, 'GROUP_NOT_FOUND'],
  ]);
  const basicFault = ['PRODUCT_NOT_FOUND', 'VARIANT_OF_VARIANT', 'SUPPLIER_PID_TAKEN'].includes(
    expected ?? '',
  );
  return {
    tool: 'create_product',
    args,
    expected,
    touched: master ? [master.id] : [],
    twin:
      basicFault || cmd.fault === 'badNameLang'
        ? { method: 'POST', path: '/api/product', body: basic }
        : undefined,
    apply(data) {
      const id = (data.product as { id: number }).id;
      expect(model.products.has(id), `create_product returned the id ${id} of an existing product`).toBe(
        false,
      );
      const p = newProduct(id, supplierPid, master?.id ?? null, now);
      p.ean = cmd.ean ?? null;
      writeName(p, cmd.name);
      writeDetails(p, details);
      if (group) p.group = group.id;
      model.products.set(id, p);
      return master ? [id, master.id] : [id];
    },
  };
}

export function planUpdateProduct(model: Model, cmd: CommandOf<'update_product'>): Planned {
  const products = model.productList();
  const target = at(products, cmd.target);
  const id = target?.id ?? UNKNOWN_ID;
  const others = products.filter((p) => p.id !== id);
  const dupOf = cmd.fault === 'dupPid' ? at(others, cmd.pick) : undefined;
  const supplierPid =
    dupOf?.supplierPid ??
    (cmd.pid === 'fresh' ? model.freshPid() : cmd.pid === 'own' ? target?.supplierPid : undefined);
  const group = cmd.group === undefined || cmd.group === null ? undefined : at(model.groupList(), cmd.group);
  const groupId =
    cmd.fault === 'unknownGroup'
      ? UNKNOWN_ID
      : cmd.group === null
        ? null
        : cmd.group === undefined
          ? undefined
          : (group?.id ?? null);
  const details = detailsFor(cmd, cmd.fault, cmd.pick);
  const basic = withoutUndefined({
    supplierPid,
    ean: cmd.ean,
    manufacturerPid: cmd.manufacturerPid,
    supplierIdRef: cmd.supplierIdRef,
    ...nameArgs(cmd.name, cmd.fault, cmd.pick),
  });
  const args = withoutUndefined({
    id,
    ...basic,
    shortTexts: details.shortTexts,
    longTexts: details.longTexts,
    features: details.features,
    groupId,
    masterProductId: cmd.fault === 'masterField' ? (at(products, cmd.pick)?.id ?? 1) : undefined,
  });
  const expected = firstError([
    [cmd.fault === 'masterField', 'VALIDATION_FAILED'],
    [cmd.fault === 'dupFtidref', 'VALIDATION_FAILED'],
    [cmd.fault === 'badTextLang', 'INVALID_LANGUAGE'],
    [cmd.fault === 'dupTextLang', 'VALIDATION_FAILED'],
    [cmd.fault === 'badNameLang', 'INVALID_LANGUAGE'],
    [!target, 'PRODUCT_NOT_FOUND'],
    [dupOf !== undefined, 'SUPPLIER_PID_TAKEN'],
    [cmd.fault === 'badFeatureLang', 'INVALID_LANGUAGE'],
    [groupId === UNKNOWN_ID, 'GROUP_NOT_FOUND'],
  ]);
  const basicFault =
    expected === 'PRODUCT_NOT_FOUND' ||
    expected === 'SUPPLIER_PID_TAKEN' ||
    (expected === 'INVALID_LANGUAGE' && cmd.fault === 'badNameLang');
  return {
    tool: 'update_product',
    args,
    expected,
    touched: target ? [target.id] : [],
    written: target ? [target.id] : [],
    twin: basicFault ? { method: 'PUT', path: `/api/product/${id}`, body: basic } : undefined,
    apply() {
      const p = target!;
      if (supplierPid !== undefined) p.supplierPid = supplierPid;
      if (cmd.ean !== undefined) p.ean = cmd.ean;
      if (cmd.manufacturerPid !== undefined) p.manufacturerPid = cmd.manufacturerPid;
      if (cmd.supplierIdRef !== undefined) p.supplierIdRef = cmd.supplierIdRef;
      writeName(p, cmd.name);
      writeDetails(p, details);
      if (groupId !== undefined) p.group = groupId;
      return p.master === null ? [p.id] : [p.id, p.master];
    },
  };
}

export function planDeleteProduct(model: Model, cmd: CommandOf<'delete_product'>): Planned {
  const products = model.productList();
  const target = at(products, cmd.target);
  const id = target?.id ?? UNKNOWN_ID;
  return {
    tool: 'delete_product',
    args: { id },
    expected: target ? null : 'PRODUCT_NOT_FOUND',
    touched: [],
    twin: { method: 'DELETE', path: `/api/product/${id}` },
    apply(data) {
      expect(data).toEqual({ deletedId: id });
      const gone = model.deleteProducts([id]);
      return target!.master === null ? gone : [...gone, target!.master];
    },
  };
}
