import type { TextKind } from '../../db/workspace.schema.js';
import { textsJsonPostgres } from '../products/product-sheet.postgres.js';
import { textsJsonSqlite } from '../products/product-sheet.repository.js';
import { productPartJson, type ProductPartJsonReader } from '../products/product-part-json.repository.js';

/** A product's texts of one kind as the JSON text of TextEntryDto[] (the sheet's part); undefined for no such product. */
export const findTextsJson: Record<TextKind, ProductPartJsonReader> = {
  DESCRIPTIONSHORT: productPartJson(
    textsJsonSqlite('DESCRIPTIONSHORT'),
    textsJsonPostgres('DESCRIPTIONSHORT'),
  ),
  DESCRIPTIONLONG: productPartJson(textsJsonSqlite('DESCRIPTIONLONG'), textsJsonPostgres('DESCRIPTIONLONG')),
};
