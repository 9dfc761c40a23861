import type Database from 'better-sqlite3';
import { FEATURE_CLASSES, FEATURES_PER_PRODUCT, LANGUAGES, type Lang } from '../config.js';
import { entriesJson, mergeEntries } from '../../src/domain/features/entry-list.rules.js';
import type { Random } from './random.js';
import { COLOURS, PROPERTIES, type Property } from './words.js';

export interface FeatureDef {
  id: number;
  property: Property;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An ECLASS-like property reference, e.g. 0173-1#02-AAB123#005; unique for k < 676. */
export function ftidref(k: number): string {
  const code = `A${LETTERS[Math.floor(k / 26) % 26]}${LETTERS[k % 26]}`;
  return `0173-1#02-${code}${String(100 + ((k * 37) % 900))}#00${1 + (k % 9)}`;
}

/** FEATURE_CLASSES x FEATURES_PER_PRODUCT definitions with names in every language and a default unit. */
export function insertFeatureDefs(db: Database.Database): FeatureDef[][] {
  const insertDef = db.prepare(
    'INSERT INTO feature_def (id, ftidref, default_unit, names_json) VALUES (?, ?, ?, ?)',
  );
  const classes: FeatureDef[][] = [];
  db.transaction(() => {
    for (let c = 0; c < FEATURE_CLASSES; c++) {
      const defs: FeatureDef[] = [];
      for (let f = 0; f < FEATURES_PER_PRODUCT; f++) {
        const k = c * FEATURES_PER_PRODUCT + f;
        const property = PROPERTIES[(c + f) % PROPERTIES.length]!;
        const names = LANGUAGES.map((lang) => ({ lang, value: property.names[lang] }));
        insertDef.run(k + 1, ftidref(k), property.unit, entriesJson(mergeEntries([], names)));
        defs.push({ id: k + 1, property });
      }
      classes.push(defs);
    }
  })();
  return classes;
}

/** Values per language: numbers with the language's decimal mark, colours translated. */
export function featureValues(property: Property, random: Random): Record<Lang, string> {
  if (property.max === 0) {
    const i = random.int(COLOURS.deu.length);
    return { deu: COLOURS.deu[i]!, eng: COLOURS.eng[i]!, fra: COLOURS.fra[i]! };
  }
  const value = (random.next() * property.max).toFixed(property.max > 100 ? 0 : 1);
  const comma = value.replace('.', ',');
  return { deu: comma, eng: value, fra: comma };
}
