import type { RequestContext } from '../../domain/context.js';
import { upsertProducts } from '../../domain/products/product-bulk.service.js';
import type { BmecatProduct } from './bmecat-product.js';
import { fragmentName } from './bmecat-schema-order.js';
import { storedSheet } from './bmecat-stored-products.js';

/**
 * T_UPDATE_PRICES (docs/bmecat.md): prices only. pim keeps a product's prices as kept content (its
 * PRODUCT_PRICE_DETAILS fragments); each PRODUCT of the file replaces them all with its own, and its
 * USER_DEFINED_EXTENSIONS when it has one. Everything else of the product stays. A product the
 * workspace does not hold is refused (`refuse` decides: fail, or skip with continueOnError).
 */
const REPLACED = ['PRODUCT_PRICE_DETAILS', 'USER_DEFINED_EXTENSIONS'];

export async function writePriceBatch(
  ctx: RequestContext,
  batch: readonly BmecatProduct[],
  refuse: (product: BmecatProduct, message: string, code?: string) => void,
): Promise<number> {
  const documents: { supplierPid: string; fragments: { place: string; xml: string }[] }[] = [];
  const sources: BmecatProduct[] = [];
  for (const product of batch) {
    const pid = product.supplierPid!;
    const sheet = await storedSheet(ctx, pid);
    if (!sheet) {
      refuse(
        product,
        `T_UPDATE_PRICES names the product '${pid}', which the workspace does not hold`,
        'PRODUCT_NOT_FOUND',
      );
      continue;
    }
    const fromFile = product.fragments.filter(
      (f) => f.place === 'PRODUCT' && REPLACED.includes(fragmentName(f.xml)),
    );
    const names = new Set(fromFile.map((f) => fragmentName(f.xml)));
    const kept = sheet.fragments.filter((f) => !(f.place === 'PRODUCT' && names.has(fragmentName(f.xml))));
    documents.push({ supplierPid: pid, fragments: [...kept, ...fromFile] });
    sources.push(product);
  }
  if (documents.length === 0) return 0;
  let updated = 0;
  const results = await upsertProducts(ctx, documents);
  results.forEach((result, i) => {
    if (result.status === 200) updated++;
    else refuse(sources[i]!, result.error ?? 'refused', result.code);
  });
  return updated;
}
