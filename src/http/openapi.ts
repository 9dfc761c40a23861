import type { FastifyInstance } from 'fastify';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ERROR_CATALOGUE, ERROR_CODE_NAMES } from '../domain/error-codes.js';
import { conditionalRequestHeaders } from './conditional.js';
import { errorResponses } from './response.schemas.js';
import { PUBLIC } from './route-access.js';

const DESCRIPTION = `HTTP/JSON interface of pim, a product-information-management application.

Every response body is the envelope \`{success, data, error}\`; errors carry an English sentence in \`error\` and a
machine-readable \`code\`. All endpoints except \`POST /api/auth/login\`, CORS preflights and this description need
\`Authorization: Bearer <token>\`; tokens are UUIDs valid 24 hours from login, ended for good by logout.

A path that is not valid percent-encoded UTF-8 (\`%FF\`), or with a segment over 1,000 characters, answers 400
(INVALID_URL, PATH_SEGMENT_TOO_LONG) before any other check: it names no route. So does a query string that is not
valid percent-encoded UTF-8, or a request target holding a \`#\` (INVALID_URL, before the token is checked). A
request that is not valid HTTP/1.1
(unknown method, malformed header, headers over 16 KiB) answers 400 MALFORMED_REQUEST or 431 HEADERS_TOO_LARGE.

Every query parameter takes one value: one given more than once answers 400 naming it.

A known path called with another method answers 405 with an \`Allow\` header listing its methods. Created
resources answer 201 with \`Location\`; paged lists name the next page in \`Link\`; 429 and 503 carry
\`Retry-After\`; 401 carries \`WWW-Authenticate\`.

Order of checks: token (401, also on unknown paths under /api), open workspace (409 for every path under
/api/product and /api/group), role right (403), route and method (404, 405 with Allow), body (413 over 8 MiB,
415 for a body not sent as JSON in UTF-8 or with a Content-Encoding, 400 for one that is not valid JSON or whose
bytes are not valid UTF-8: they are never read as U+FFFD), resources named in path or body (404).

Roles: ADMIN (all rights), EDITOR (Lesen, Bearbeiten, Arbeitsbereiche), VIEWER (Lesen). Reading needs Lesen,
changing catalogue data Bearbeiten, opening workspaces Arbeitsbereiche, changing settings Einstellungen.

Conditional requests: every catalogue read (products, variants, texts, features, groups, the tree, every list
page) answers with a weak \`ETag\`; \`If-None-Match\` with a current one answers 304 with no body (one cheap
lookup, the data is not read). A product's ETag (\`W/"w1-p42-r17-deu"\`) names its revision and the language of
\`name\`, and changes with every change of the product, its texts, features, group membership and variants; every
other ETag names the workspace's change counter (\`changeCounter\` in GET /api/workspace, raised by every change to
the catalogue by anyone) and the request's path and query. \`If-Match\` on PUT and DELETE /api/product/{id} makes the
change conditional (optimistic locking): 412 PRECONDITION_FAILED when the product changed since.

Language codes are ISO 639-2; /B and /T forms are accepted case-insensitively and stored in /T form (ger → deu).
A machine is a pim instance (its data folder's machine id), not a client address: a user who holds a live token or
window session issued by another instance sharing this one's users (team mode) cannot log in here until logout or
expiry (401 LOGGED_IN_ELSEWHERE); logins on this instance are allowed from any client address, and a token is valid
on the instance that issued it. Ten failed logins for one user name from one client (its address and Origin
header) within 15 minutes, or fifty across user names, answer 429 with Retry-After. Each pim instance counts the
failures it saw: with several instances on one database (team mode) a client that tries them all gets these limits
on each. Too many logins at once answer 503 LOGIN_BUSY with Retry-After: 1. Every 401 carries WWW-Authenticate: Bearer (error="invalid_token" for a token
that is malformed, unknown, logged out or expired).`;

/** The catalogue of error codes as a Markdown table for the description. */
function errorCodeTable(): string {
  const rows = ERROR_CODE_NAMES.map(
    (code) => `| ${code} | ${ERROR_CATALOGUE[code][0]} | ${ERROR_CATALOGUE[code][1]} |`,
  );
  return [
    '## Error codes',
    '',
    'Every error answer carries one of these in `code`.',
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * The description only, the routes' own schemas (which validate requests and serialize answers)
 * stay as they are: on every operation the 405 with Allow that its path answers to the methods
 * it lacks (installNotFoundHandler; OpenAPI has no responses of a path as a whole), and the
 * request headers of conditional routes (conditional.ts: not validated).
 */
const describeOperation: SwaggerTransform = ({ schema, url, route }) => {
  const headers = conditionalRequestHeaders(route.config);
  const described = headers ? { ...schema, headers } : schema;
  const response = (described as { response?: Record<number, unknown> } | undefined)?.response;
  if (!response) return { schema: described, url };
  return { schema: { ...described, response: { ...response, ...errorResponses(405) } }, url };
};

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    transform: describeOperation,
    // Shared schemas are named components (ProductGroupNodeDto), not def-0.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        String((json as { $id?: string; title?: string }).title ?? json.$id ?? `schema-${i}`),
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'pim REST API',
        version: '1.0.0',
        description: `${DESCRIPTION}\n\n${errorCodeTable()}`,
        license: { name: 'Proprietary', identifier: 'LicenseRef-pim-proprietary' },
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'UUID' } },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'auth', description: 'Login and logout' },
        { name: 'workspace', description: 'Workspaces: a folder plus a database' },
        { name: 'product', description: 'Products and variants' },
        { name: 'text', description: 'Short and long texts per language' },
        { name: 'feature', description: 'Features by FT_IDREF' },
        { name: 'group', description: 'The product group tree' },
        { name: 'job', description: 'Long work (BMEcat imports): state, progress, report and cancel' },
      ],
    },
  });
  // The reference page's routes are public: marked so on each route, as the auth hook demands.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    // Bundled assets, no CDN: the reference page works on machines without internet.
    await docs.register(swaggerUi, {
      routePrefix: '/api/docs',
      uiConfig: { validatorUrl: null, deepLinking: true },
      staticCSP: true,
      // The default policy allows any https: style and font source and says upgrade-insecure-requests,
      // which makes browsers fetch the page's own assets over https from this plain-http server (a blank
      // page when opened from another machine). Everything the page needs is served from here.
      transformStaticCSP: (header) =>
        header
          .replace(/\s*upgrade-insecure-requests;?/g, '')
          .replace(/ https:/g, '')
          .replace(/ validator\.swagger\.io/g, ''),
    });
  });
  app.get('/api/openapi.json', { schema: { hide: true }, config: PUBLIC }, async () => app.swagger());
}
