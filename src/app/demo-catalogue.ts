import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import type { RequestContext } from '../domain/context.js';
import { defineFeature, setFeature } from '../domain/features/feature.service.js';
import { createProduct } from '../domain/products/product.service.js';
import { setText } from '../domain/texts/text.service.js';
import { documentValidator } from '../domain/validation/schema-validation.js';

/**
 * The first-run demo catalogue is data, in demo-catalogue.json beside this file (the build copies
 * it into dist/app/): feature definitions in the style of ECLASS IRDIs (FT_IDREF) with names in
 * deu and eng, and products with their variants, texts and feature values.
 */
const DATA_FILE = new URL('./demo-catalogue.json', import.meta.url);

const Text = Type.String({ minLength: 1 });
const FeatureDefinition = Type.Object(
  { ftidref: Text, unit: Type.Union([Text, Type.Null()]), deu: Text, eng: Text },
  { additionalProperties: false },
);
/** A product's value of a feature: eng defaults to deu, unit to the definition's. */
const FeatureValue = Type.Object(
  { feature: Text, deu: Text, eng: Type.Optional(Text), unit: Type.Optional(Text) },
  { additionalProperties: false },
);
const productFields = {
  pid: Text,
  deu: Text,
  eng: Text,
  mpn: Type.Optional(Text),
  long: Type.Optional(Type.Object({ deu: Text, eng: Text }, { additionalProperties: false })),
  features: Type.Optional(Type.Array(FeatureValue)),
};
const Variant = Type.Object(productFields, { additionalProperties: false });
const Product = Type.Object(
  { ...productFields, variants: Type.Optional(Type.Array(Variant)) },
  { additionalProperties: false },
);
const DemoCatalogue = Type.Object(
  {
    supplier: Text,
    features: Type.Record(Type.String(), FeatureDefinition),
    products: Type.Array(Product),
  },
  { additionalProperties: false },
);
type DemoCatalogue = Static<typeof DemoCatalogue>;
type DemoItem = Static<typeof Variant>;

/** Reads and checks the data: a mistake in the file fails the first run naming it, not halfway through. */
function loadDemoCatalogue(): DemoCatalogue {
  const data = documentValidator<DemoCatalogue>(DemoCatalogue)(JSON.parse(readFileSync(DATA_FILE, 'utf8')));
  const items = data.products.flatMap((product) => [product, ...(product.variants ?? [])]);
  for (const item of items) {
    const unknown = item.features?.find((value) => !Object.hasOwn(data.features, value.feature));
    if (unknown) throw new Error(`${DATA_FILE.pathname}: ${item.pid} names no feature '${unknown.feature}'`);
  }
  return data;
}

/** EAN-13 with check digit, from 12 digits. */
function ean13(base: string): string {
  const sum = [...base].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return base + String((10 - (sum % 10)) % 10);
}

/**
 * Fills the first-run demo workspace with a small, realistic catalogue through the
 * domain services (so the sample data obeys every rule the API enforces).
 */
export async function seedDemoCatalogue(ctx: RequestContext): Promise<{ products: number; groups: number }> {
  const { supplier, features, products } = loadDemoCatalogue();
  for (const def of Object.values(features)) {
    await defineFeature(ctx, {
      ftidref: def.ftidref,
      defaultUnit: def.unit,
      names: [
        { lang: 'deu', name: def.deu },
        { lang: 'eng', name: def.eng },
      ],
    });
  }
  let count = 0;
  const add = async (item: DemoItem, masterProductId?: number): Promise<number> => {
    count++;
    const product = await createProduct(ctx, {
      supplierPid: item.pid,
      supplierIdRef: supplier,
      name: item.deu,
      language: 'deu',
      ean: ean13(`4006381${String(10000 + count)}`),
      manufacturerPid: item.mpn ?? null,
      masterProductId,
    });
    await setText(ctx, product.id, 'DESCRIPTIONSHORT', 'eng', item.eng);
    if (item.long) {
      await setText(ctx, product.id, 'DESCRIPTIONLONG', 'deu', item.long.deu);
      await setText(ctx, product.id, 'DESCRIPTIONLONG', 'eng', item.long.eng);
    }
    for (const { feature, deu, eng, unit } of item.features ?? []) {
      await setFeature(ctx, product.id, features[feature]!.ftidref, {
        ...(unit ? { funit: unit } : {}),
        values: [
          { lang: 'deu', value: deu },
          { lang: 'eng', value: eng ?? deu },
        ],
      });
    }
    return product.id;
  };
  for (const item of products) {
    const id = await add(item);
    for (const variant of item.variants ?? []) await add(variant, id);
  }
  return { products: count, groups: 0 };
}
