import { expect } from 'vitest';
import type { CommandOf } from './commands.js';
import { expectedFeatures } from './expected-dtos.js';
import { LANGS, setFeatureIn, sortedEntries, stored, type Model } from './model.js';
import {
  UNKNOWN_ID,
  at,
  encode,
  firstError,
  prefer,
  spoilEntries,
  withoutUndefined,
} from './plan-helpers.js';
import type { Planned } from './plan.js';

/** Planning the text and feature calls: set_texts, delete_text, set_feature, delete_feature. */

export function planSetTexts(model: Model, cmd: CommandOf<'set_texts'>): Planned {
  const products = model.productList();
  const target = at(products, cmd.target);
  const id = target?.id ?? UNKNOWN_ID;
  const texts = spoilEntries(cmd.texts, cmd.fault, cmd.pick);
  return {
    tool: 'set_texts',
    args: { id, kind: cmd.kind, texts },
    expected: firstError([
      [cmd.fault === 'badLang', 'INVALID_LANGUAGE'],
      [cmd.fault === 'dupLang', 'VALIDATION_FAILED'],
      [!target, 'PRODUCT_NOT_FOUND'],
    ]),
    touched: target ? [target.id] : [],
    written: target ? [target.id] : [],
    apply(data) {
      const p = target!;
      for (const { lang, value } of texts) p.texts[cmd.kind].set(stored(lang), value);
      expect(data).toEqual({ id, kind: cmd.kind, texts: sortedEntries(p.texts[cmd.kind]) });
      return [id];
    },
  };
}

export function planDeleteText(model: Model, cmd: CommandOf<'delete_text'>): Planned {
  const products = model.productList();
  // existing: a product that has a text of this kind, and one of its languages.
  const target = at(
    prefer(products, cmd.existing, (p) => p.texts[cmd.kind].size > 0),
    cmd.target,
  );
  const id = target?.id ?? UNKNOWN_ID;
  const bad = !(cmd.lang in LANGS);
  // Mostly a language the product has a text in.
  const have = target ? [...target.texts[cmd.kind].keys()].sort() : [];
  const lang = !bad && cmd.existing && have.length > 0 ? at(have, cmd.pick)! : cmd.lang;
  const code = bad ? undefined : stored(lang);
  return {
    tool: 'delete_text',
    args: { id, kind: cmd.kind, lang },
    expected: firstError([
      [bad, 'INVALID_LANGUAGE'],
      [!target, 'PRODUCT_NOT_FOUND'],
      [!target?.texts[cmd.kind].has(code ?? ''), 'TEXT_NOT_FOUND'],
    ]),
    touched: target ? [target.id] : [],
    twin: { method: 'DELETE', path: `/api/product/${id}/texts/${cmd.kind}/${encode(lang)}` },
    apply(data) {
      expect(data).toEqual({ id, kind: cmd.kind, lang });
      target!.texts[cmd.kind].delete(code!);
      return [id];
    },
  };
}

export function planSetFeature(model: Model, cmd: CommandOf<'set_feature'>): Planned {
  const products = model.productList();
  const target = at(products, cmd.target);
  const id = target?.id ?? UNKNOWN_ID;
  const feature = { ...cmd.feature, values: spoilEntries(cmd.feature.values, cmd.fault, cmd.pick) };
  const { ftidref, ...body } = feature;
  return {
    tool: 'set_feature',
    args: { id, ...feature },
    expected: firstError([
      [cmd.fault === 'badLang', 'INVALID_LANGUAGE'],
      [cmd.fault === 'dupLang', 'VALIDATION_FAILED'],
      [!target, 'PRODUCT_NOT_FOUND'],
    ]),
    touched: target ? [target.id] : [],
    written: target ? [target.id] : [],
    twin: { method: 'PUT', path: `/api/product/${id}/features/${encode(ftidref)}`, body },
    apply(data) {
      const p = target!;
      setFeatureIn(p, feature);
      expect(data).toEqual(expectedFeatures(p).find((f) => f.ftidref === ftidref));
      return [id];
    },
  };
}

export function planDeleteFeature(model: Model, cmd: CommandOf<'delete_feature'>): Planned {
  const products = model.productList();
  // existing: a product that has features, one of them, and one of its languages.
  const target = at(
    prefer(products, cmd.existing, (p) => p.features.length > 0),
    cmd.target,
  );
  const id = target?.id ?? UNKNOWN_ID;
  const features = target?.features ?? [];
  const feature = cmd.existing && features.length > 0 ? at(features, cmd.pick) : undefined;
  const ftidref = feature?.ftidref ?? cmd.ftidref;
  const modelFeature = features.find((f) => f.ftidref === ftidref);
  let lang = cmd.lang;
  if (lang !== undefined && lang in LANGS && cmd.existing && modelFeature && modelFeature.values.size > 0) {
    lang = at([...modelFeature.values.keys()].sort(), cmd.pick);
  }
  const bad = lang !== undefined && !(lang in LANGS);
  const code = lang === undefined || bad ? undefined : stored(lang);
  const path = `/api/product/${id}/features/${encode(ftidref)}`;
  return {
    tool: 'delete_feature',
    args: withoutUndefined({ id, ftidref, lang }),
    expected: firstError([
      [bad, 'INVALID_LANGUAGE'],
      [!target, 'PRODUCT_NOT_FOUND'],
      [!modelFeature, 'FEATURE_NOT_FOUND'],
      [code !== undefined && !modelFeature?.values.has(code), 'FEATURE_VALUE_NOT_FOUND'],
    ]),
    touched: target ? [target.id] : [],
    twin: { method: 'DELETE', path: lang === undefined ? path : `${path}/${encode(lang)}` },
    apply(data) {
      expect(data).toEqual({ id, ftidref, lang: lang ?? null });
      const p = target!;
      if (code === undefined) p.features = p.features.filter((f) => f.ftidref !== ftidref);
      else modelFeature!.values.delete(code);
      return [id];
    },
  };
}
