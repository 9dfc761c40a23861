import type { RequestContext } from '../../domain/context.js';
import { DomainError } from '../../domain/errors.js';
import { defineFeature } from '../../domain/features/feature.service.js';
import type { BmecatProduct } from './bmecat-product.js';

/**
 * The feature definitions' names a file gives inside its products (FNAME per language beside
 * FT_IDREF, FTEMPLATE/FT_NAME): merged into each definition's names per language, as a
 * FEATURE_SYSTEM's templates are (docs/bmecat.md, "Mapping"). Real files repeat a feature's names in
 * every product that has it; each distinct set of names is written once per import.
 */
export class FeatureNames {
  /** The names written so far, by FT_IDREF: each set as its JSON text. */
  private readonly written = new Map<string, Set<string>>();

  /**
   * Writes the names `product` brings that this import has not written yet. A name the definitions
   * cannot take (too long, an unknown language) refuses the product: the error is returned, nothing
   * of it written (the caller skips or fails it).
   */
  async apply(ctx: RequestContext, product: BmecatProduct): Promise<DomainError | undefined> {
    const fresh = product.featureNames.filter(
      ({ ftidref, names }) => !this.written.get(ftidref)?.has(JSON.stringify(names)),
    );
    try {
      for (const { ftidref, names } of fresh) {
        await defineFeature(ctx, { ftidref, names: names.map((n) => ({ lang: n.lang, name: n.value })) });
      }
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
    for (const { ftidref, names } of fresh) {
      const sets = this.written.get(ftidref) ?? new Set<string>();
      sets.add(JSON.stringify(names));
      this.written.set(ftidref, sets);
    }
    return undefined;
  }
}
