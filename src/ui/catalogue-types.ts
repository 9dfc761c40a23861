/**
 * The shapes of the window's catalogue answers, apart from the calls (catalogue-api.ts) so that
 * code without the browser's fetch (the editor's form model, its unit test) can use them.
 */

export interface TextEntry {
  lang: string;
  value: string;
}

export interface FeatureOccurrence {
  ftidref: string;
  funit: string | null;
  names?: TextEntry[];
  values: TextEntry[];
  details?: unknown;
}

/** The product sheet as the server answers it (ProductSheetDto); parts the editor does not show pass through. */
export interface ProductSheet {
  product: {
    id: number;
    supplierPid: string;
    supplierIdRef: string | null;
    name: string;
    ean: string | null;
    manufacturerPid: string | null;
    masterProduct: boolean;
    variantCount: number;
    masterProductId: number | null;
    [key: string]: unknown;
  };
  shortTexts: TextEntry[];
  longTexts: TextEntry[];
  features: FeatureOccurrence[];
  group: { id: number; groupId: string; name: string } | null;
  variants: { id: number; supplierPid: string; name: string }[];
  [key: string]: unknown;
}

export interface VersionedSheet {
  sheet: ProductSheet;
  /** The revision the sheet shows: a save sends it back (412 when the product changed since). */
  revision: string;
}

export interface LanguageEntry {
  code: string;
  en: string;
  de: string;
}
