import type Database from 'better-sqlite3';
import { LANGUAGES, LONG_TEXT_LANGUAGES } from '../config.js';
import { entriesJson, mergeEntries } from '../../src/domain/features/entry-list.rules.js';
import { featureValues, type FeatureDef } from './features.js';
import type { Random } from './random.js';
import { ADJECTIVES, NOUNS, SENTENCES } from './words.js';

/** Products come in blocks of 10: a main product, its 2 variants, 7 standalone products (1/5 variants). */
export const BLOCK = 10;
const VARIANTS_PER_MAIN = 2;
const BATCH = 5_000;
const START_MS = Date.UTC(2024, 0, 1);

export interface ProductCounts {
  products: number;
  variants: number;
  /** Products that are not variants: what `GET /api/product` lists without `all=true`. */
  mainProducts: number;
}

/** EAN-13 with a valid check digit, from a German (400-440) prefix. */
export function ean13(n: number): string {
  const body = `40${String(n).padStart(10, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

function statements(db: Database.Database) {
  return {
    product: db.prepare(
      `INSERT INTO product (id, supplier_pid, supplier_id_ref, ean, manufacturer_pid, master_id, group_id,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    text: db.prepare('INSERT INTO product_text (product_id, kind, lang, value) VALUES (?, ?, ?, ?)'),
    feature: db.prepare(
      'INSERT INTO product_feature (product_id, feature_id, funit, position, values_json) VALUES (?, ?, ?, ?, ?)',
    ),
  };
}

interface Plan {
  count: number;
  leafIds: number[];
  featureClasses: FeatureDef[][];
  random: Random;
}

/** Inserts products 1..count with texts and features, BATCH products per transaction. */
export function insertProducts(db: Database.Database, plan: Plan): ProductCounts {
  const st = statements(db);
  const blocks = Math.ceil(plan.count / BLOCK);
  let variants = 0;
  const insertRange = db.transaction((from: number, to: number) => {
    for (let id = from; id <= to; id++) {
      const block = Math.floor((id - 1) / BLOCK);
      const inBlock = (id - 1) % BLOCK;
      const isVariant = inBlock >= 1 && inBlock <= VARIANTS_PER_MAIN;
      if (isVariant) variants++;
      const leaf = Math.floor((block * plan.leafIds.length) / blocks);
      const groupId = plan.leafIds[leaf]!;
      const masterId = isVariant ? id - inBlock : null;
      const created = new Date(START_MS + id * 97_000);
      const updated = new Date(created.getTime() + plan.random.int(30 * 86_400_000));
      st.product.run(
        id,
        isVariant
          ? `BP-${String(masterId).padStart(7, '0')}-V${inBlock}`
          : `BP-${String(id).padStart(7, '0')}`,
        'SUP-4711',
        ean13(id),
        plan.random.next() < 0.8 ? `MPN-${(id * 7919) % 1_000_003}` : null,
        masterId,
        groupId,
        created.toISOString(),
        updated.toISOString(),
      );
      insertTexts(st.text, id, plan.random);
      insertFeatures(st, id, plan.featureClasses[leaf % plan.featureClasses.length]!, plan.random);
    }
  });
  for (let from = 1; from <= plan.count; from += BATCH) {
    insertRange(from, Math.min(plan.count, from + BATCH - 1));
  }
  return { products: plan.count, variants, mainProducts: plan.count - variants };
}

function insertTexts(text: Database.Statement, id: number, random: Random): void {
  const noun = random.int(NOUNS.deu.length);
  const adjective = random.int(ADJECTIVES.deu.length);
  const size = `${4 + random.int(20)}x${10 + random.int(190)}`;
  for (const lang of LANGUAGES) {
    text.run(id, 'DESCRIPTIONSHORT', lang, `${NOUNS[lang][noun]} ${ADJECTIVES[lang][adjective]} ${size}`);
  }
  const sentences = [0, 1, 2, 3].map(() => random.int(SENTENCES.deu.length));
  for (const lang of LONG_TEXT_LANGUAGES) {
    text.run(id, 'DESCRIPTIONLONG', lang, sentences.map((i) => SENTENCES[lang][i]).join(' '));
  }
}

function insertFeatures(
  st: ReturnType<typeof statements>,
  id: number,
  defs: FeatureDef[],
  random: Random,
): void {
  defs.forEach((def, position) => {
    const values = featureValues(def.property, random);
    const entries = mergeEntries(
      [],
      LANGUAGES.map((lang) => ({ lang, value: values[lang] })),
    );
    st.feature.run(id, def.id, def.property.unit, position + 1, entriesJson(entries));
  });
}
