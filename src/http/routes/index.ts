import type { PimApp } from '../pim-app.js';
import type { HttpDeps } from '../http-deps.js';
import { authRoutes } from './auth.routes.js';
import { productRoutes } from './product.routes.js';
import { productBulkRoutes } from './product-bulk.routes.js';
import { productSheetRoutes } from './product-sheet.routes.js';
import { textRoutes } from './text.routes.js';
import { featureRoutes } from './feature.routes.js';
import { groupRoutes } from './group.routes.js';
import { workspaceRoutes } from './workspace.routes.js';
import { mcpRoutes } from './mcp.routes.js';
import { jobRoutes } from './job.routes.js';
import { importRoutes } from './import.routes.js';
import { exportRoutes } from './export.routes.js';
import { massEditRoutes } from './mass-edit.routes.js';

/** Every route module of the REST interface (under /api), and the agent interface (/mcp). */
export function registerRoutes(app: PimApp, deps: HttpDeps): void {
  authRoutes(app, deps);
  workspaceRoutes(app, deps);
  productRoutes(app, deps);
  productBulkRoutes(app, deps);
  massEditRoutes(app, deps);
  productSheetRoutes(app, deps);
  textRoutes(app, deps);
  featureRoutes(app, deps);
  groupRoutes(app, deps);
  jobRoutes(app, deps);
  importRoutes(app, deps);
  exportRoutes(app, deps);
  mcpRoutes(app, deps);
}
