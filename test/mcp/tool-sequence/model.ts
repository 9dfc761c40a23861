/**
 * The in-test model of one workspace: its products (with their texts and features) and its groups,
 * as a sequence of tool calls should leave them. Languages are kept in their stored form.
 */

/** Language spellings the tools accept, with their stored form (ISO 639-2 /B and /T, any case). */
export const LANGS: Readonly<Record<string, string>> = {
  deu: 'deu',
  ger: 'deu',
  DEU: 'deu',
  eng: 'eng',
  Eng: 'eng',
  fra: 'fra',
  fre: 'fra',
  ita: 'ita',
  nld: 'nld',
  dut: 'nld',
};
export const SPELLINGS = Object.keys(LANGS);
/** Strings the schema lets through (1 to 16 characters) that are no ISO 639-2 code. */
export const BAD_LANGS = ['de', 'xyz', 'qaa', 'english'];
export const DEFAULT_LANG = 'deu';

export type Kind = 'short' | 'long';

/** A value in one language as sent: `lang` is a spelling (ger, Eng) or a bad code. */
export interface Entry {
  lang: string;
  value: string;
}

export interface FeatureSpec {
  ftidref: string;
  funit?: string | null;
  values: Entry[];
}

export interface MFeature {
  ftidref: string;
  funit: string | null;
  values: Map<string, string>;
}

export interface MProduct {
  id: number;
  supplierPid: string;
  supplierIdRef: string | null;
  ean: string | null;
  manufacturerPid: string | null;
  master: number | null;
  group: number | null;
  texts: Record<Kind, Map<string, string>>;
  features: MFeature[];
  createdAt: string;
  updatedAt: string;
}

export interface MGroup {
  id: number;
  parent: number | null;
  groupId: string;
  nextChild: number;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export class Model {
  products = new Map<number, MProduct>();
  groups = new Map<number, MGroup>();
  nextRoot = 1;
  private pidCounter = 0;

  constructor(readonly workspaceName: string) {}

  freshPid(): string {
    this.pidCounter += 1;
    return `P-${this.pidCounter}`;
  }

  productList(): MProduct[] {
    return [...this.products.values()].sort((a, b) => a.id - b.id);
  }

  mains(): MProduct[] {
    return this.productList().filter((p) => p.master === null);
  }

  variants(): MProduct[] {
    return this.productList().filter((p) => p.master !== null);
  }

  variantsOf(id: number): MProduct[] {
    return this.productList().filter((p) => p.master === id);
  }

  groupList(): MGroup[] {
    return [...this.groups.values()].sort((a, b) => a.id - b.id);
  }

  subtree(id: number): Set<number> {
    const out = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const g of this.groups.values()) {
        if (g.parent !== null && out.has(g.parent) && !out.has(g.id)) {
          out.add(g.id);
          grew = true;
        }
      }
    }
    return out;
  }

  /** Deletes products; a main product takes its variants (and all their data) with it. */
  deleteProducts(ids: Iterable<number>): number[] {
    const gone: number[] = [];
    for (const id of ids) {
      if (!this.products.has(id)) continue;
      for (const v of this.variantsOf(id)) {
        this.products.delete(v.id);
        gone.push(v.id);
      }
      this.products.delete(id);
      gone.push(id);
    }
    return gone;
  }
}

export function newProduct(id: number, supplierPid: string, master: number | null, now: string): MProduct {
  return {
    id,
    supplierPid,
    supplierIdRef: null,
    ean: null,
    manufacturerPid: null,
    master,
    group: null,
    texts: { short: new Map(), long: new Map() },
    features: [],
    createdAt: now,
    updatedAt: now,
  };
}

export function stored(lang: string): string {
  const code = LANGS[lang];
  if (code === undefined) throw new Error(`not a good spelling: ${lang}`);
  return code;
}

export function sortedEntries(values: Map<string, string>): { lang: string; value: string }[] {
  return [...values.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([lang, value]) => ({ lang, value }));
}

/** ProductDto.name: the short text in the default language, else the first by language code, else "". */
export function nameOf(p: MProduct): string {
  return p.texts.short.get(DEFAULT_LANG) ?? sortedEntries(p.texts.short)[0]?.value ?? '';
}

export function setFeatureIn(p: MProduct, spec: FeatureSpec): void {
  let feature = p.features.find((f) => f.ftidref === spec.ftidref);
  if (!feature) {
    feature = { ftidref: spec.ftidref, funit: spec.funit ?? null, values: new Map() };
    p.features.push(feature);
  } else if (spec.funit !== undefined) {
    feature.funit = spec.funit;
  }
  for (const { lang, value } of spec.values) feature.values.set(stored(lang), value);
}
