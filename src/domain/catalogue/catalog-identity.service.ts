import { RIGHTS, useWorkspace, type RequestContext } from '../context.js';
import { atField, ValidationError } from '../errors.js';
import { selectCatalogIdentity, writeCatalogIdentityField } from './catalog-identity.repository.js';
import {
  CATALOG_IDENTITY_FIELDS,
  CatalogIdentity,
  type CatalogIdentityChange,
} from './catalog-identity.schemas.js';

/**
 * The ids and names a BMEcat export writes in its HEADER, set per workspace
 * (catalog-identity.schemas.ts). Reading needs the read right, changing them the edit right.
 */
export async function getCatalogIdentity(context: RequestContext): Promise<CatalogIdentity> {
  return selectCatalogIdentity(useWorkspace(context, RIGHTS.read).db);
}

/** Sets the fields the change names (null clears one) in one transaction; answers all of them. */
export async function setCatalogIdentity(
  context: RequestContext,
  change: CatalogIdentityChange,
): Promise<CatalogIdentity> {
  const ctx = useWorkspace(context, RIGHTS.edit);
  const entries = checkChange(change);
  return ctx.transaction(async (trx) => {
    for (const [field, value] of entries) await writeCatalogIdentityField(trx, field, value);
    return selectCatalogIdentity(trx);
  });
}

/** Every field named is known and within BMEcat's limits (the schema's, read from it). */
function checkChange(change: CatalogIdentityChange): [keyof CatalogIdentity, string | null][] {
  if (typeof change !== 'object' || change === null || Array.isArray(change))
    throw new ValidationError('The catalogue identity is an object of fields');
  const entries: [keyof CatalogIdentity, string | null][] = [];
  for (const [name, value] of Object.entries(change)) {
    const field = CATALOG_IDENTITY_FIELDS.find((f) => f === name);
    if (!field) {
      throw atField(
        new ValidationError(`Unknown field '${name}': known are ${CATALOG_IDENTITY_FIELDS.join(', ')}`),
        name,
      );
    }
    if (value === undefined) continue;
    if (value !== null) checkValue(field, value);
    entries.push([field, value]);
  }
  return entries;
}

function checkValue(field: keyof CatalogIdentity, value: unknown): void {
  const rule = CatalogIdentity.properties[field] as {
    maxLength?: number;
    pattern?: string;
    description: string;
    examples?: string[];
  };
  const element = /^[A-Z_]+/.exec(rule.description)![0];
  const fail = (why: string) => atField(new ValidationError(`${field} (${element}) ${why}`), field);
  if (typeof value !== 'string') throw fail('must be a text or null');
  if (value.trim() === '') throw fail('must not be empty: null clears it');
  const length = [...value].length;
  if (rule.maxLength !== undefined && length > rule.maxLength)
    throw fail(`has at most ${rule.maxLength} characters, this one ${length}`);
  if (rule.pattern !== undefined && !new RegExp(rule.pattern, 'u').test(value))
    throw fail(`must look like ${rule.examples?.[0] ?? rule.pattern}, not '${value}'`);
}
