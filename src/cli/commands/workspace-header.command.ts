import { getCatalogIdentity, setCatalogIdentity } from '../../domain/catalogue/catalog-identity.service.js';
import {
  CATALOG_IDENTITY_FIELDS,
  type CatalogIdentity,
  type CatalogIdentityChange,
} from '../../domain/catalogue/catalog-identity.schemas.js';
import type { CommandInput } from '../command-input.js';
import { withApplication, workspaceContext } from './with-app.js';

/** The option of each field: `catalogId` is `--catalog-id`. */
export const HEADER_OPTIONS = Object.fromEntries(
  CATALOG_IDENTITY_FIELDS.map((field) => [field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), field]),
) as Record<string, keyof CatalogIdentity>;

/**
 * `pim workspace header [--workspace NAME] [--catalog-id ID] [--catalog-version 1.0] [--catalog-name
 * NAME] [--supplier-name NAME] [--supplier-id ID] [--supplier-id-type TYPE]`: sets what a BMEcat
 * export names in its HEADER (an empty value clears one), then prints all of them.
 */
export async function workspaceHeaderCommand({ dataDir, values, out }: CommandInput): Promise<void> {
  const change: CatalogIdentityChange = {};
  for (const [option, field] of Object.entries(HEADER_OPTIONS)) {
    const value = values[option] as string | undefined;
    if (value !== undefined) change[field] = value === '' ? null : value;
  }
  await withApplication(dataDir, async (app) => {
    const ctx = await workspaceContext(app, values.workspace as string | undefined);
    const identity =
      Object.keys(change).length > 0 ? await setCatalogIdentity(ctx, change) : await getCatalogIdentity(ctx);
    for (const [option, field] of Object.entries(HEADER_OPTIONS)) {
      out(`${option}\t${identity[field] ?? '(not set)'}`);
    }
  });
}
