import type { Entry, FeatureSpec, Kind } from './model.js';

/** The commands of a sequence: one tool call each, valid or with a fault built in. */

/** An index into a list of the model (taken modulo its length), or null for an id that does not exist. */
export type Ref = number | null;

export type CreateFault =
  | 'none'
  | 'dupPid'
  | 'unknownMaster'
  | 'variantOfVariant'
  | 'badFeatureLang'
  | 'badTextLang'
  | 'dupTextLang'
  | 'dupFtidref'
  | 'badNameLang'
  | 'unknownGroup';

export type UpdateFault =
  | 'none'
  | 'dupPid'
  | 'badFeatureLang'
  | 'badTextLang'
  | 'dupTextLang'
  | 'dupFtidref'
  | 'badNameLang'
  | 'unknownGroup'
  | 'masterField';

export type ListFault = 'none' | 'badLang' | 'dupLang';

export type MoveMode = 'elsewhere' | 'same' | 'root' | 'self' | 'cycle' | 'unknown';

export interface NameSpec {
  value: string;
  language?: string;
}

export interface Details {
  shortTexts: Entry[];
  longTexts: Entry[];
  features: FeatureSpec[];
}

export type Command =
  | ({
      t: 'create_product';
      variantOf: number | null;
      name?: NameSpec;
      ean?: string;
      group?: number;
      fault: CreateFault;
      pick: number;
    } & Details)
  | ({
      t: 'update_product';
      target: Ref;
      pid: 'keep' | 'fresh' | 'own';
      ean?: string | null;
      manufacturerPid?: string | null;
      supplierIdRef?: string | null;
      name?: NameSpec;
      group?: number | null;
      fault: UpdateFault;
      pick: number;
    } & Details)
  | { t: 'delete_product'; target: Ref }
  | { t: 'set_texts'; target: Ref; kind: Kind; texts: Entry[]; fault: ListFault; pick: number }
  | { t: 'delete_text'; target: Ref; kind: Kind; lang: string; existing: boolean; pick: number }
  | {
      t: 'set_feature';
      target: Ref;
      feature: FeatureSpec;
      fault: ListFault;
      pick: number;
    }
  | {
      t: 'delete_feature';
      target: Ref;
      ftidref: string;
      existing: boolean;
      lang?: string;
      pick: number;
    }
  | { t: 'create_group'; parent: Ref | 'root'; name: string; language?: string }
  | { t: 'move_group'; group: Ref; mode: MoveMode; pick: number }
  | { t: 'delete_group'; group: Ref; deleteProducts: boolean }
  | { t: 'assign_products'; group: Ref; products: number[]; unknown: boolean }
  | { t: 'unassign_product'; group: Ref; product: Ref; member: boolean };

/** The command of one tool. */
export type CommandOf<T extends Command['t']> = Extract<Command, { t: T }>;
