import { featuresJsonPostgres } from '../products/product-sheet.postgres.js';
import { featuresJsonSqlite } from '../products/product-sheet.repository.js';
import { productPartJson } from '../products/product-part-json.repository.js';

/** A product's features as the JSON text of FeatureDto[] (the sheet's part); undefined for no such product. */
export const findFeaturesJson = productPartJson(featuresJsonSqlite, featuresJsonPostgres);
