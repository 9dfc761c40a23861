import fc from 'fast-check';
import { ERROR_CATALOGUE } from '../../src/domain/error-codes.js';
import { bodyText, oddValue, validValue, type JsonSchema } from './schema-arbitraries.js';

/**
 * A fuzzer driven by the API description the server serves: for every operation it builds
 * requests from the operation's own schemas (valid values, edges, wrong types, missing and
 * extra fields, odd strings and numbers, odd path segments and headers), sends them, and checks
 * every answer: status below 500, the envelope with a catalogued code, JSON content type, and
 * that a refused write changed nothing. See docs/fuzzing.md.
 */

interface Operation {
  method: string;
  path: string;
  pathParams: Record<string, JsonSchema>;
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
  /** Media types the description documents per status (`200`: ['application/xml'] for the export). */
  answers: Record<string, string[]>;
}

interface Planned {
  op: number;
  params: Record<string, { pick: number; odd?: string }>;
  query: Array<[string, unknown]>;
  body?: string;
  auth: 'token' | 'none' | 'bad' | 'malformed';
  contentType: string | undefined;
}

export interface Finding {
  kind: 'status-5xx' | 'content-type' | 'envelope' | 'partial-write' | 'transport';
  request: string;
  answer: string;
}

export interface FuzzSummary {
  requests: number;
  statuses: Record<number, number>;
  findings: Finding[];
}

export interface FuzzOptions {
  baseUrl: string;
  login: () => Promise<string>;
  count: number;
  seed: number;
  onProgress?: (done: number, summary: FuzzSummary) => void;
  /** Called for every finding as it is found. */
  onFinding?: (finding: Finding) => void;
}

/** Requests are planned this many at a time (seed + chunk number): memory stays flat in long runs. */
const CHUNK = 1000;
const MAX_PRODUCTS = 40;

const ODD_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  'abc',
  '99999999',
  '%2e%2e',
  '%00',
  '%25',
  '%C3%A4',
  'x'.repeat(300),
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  undefined,
];
const WRITES = new Set(['POST', 'PUT', 'DELETE']);

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        responses?: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
};

function operations(doc: Doc): Operation[] {
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    // Logout ends the fuzzer's own token; everything else is fair game.
    if (path === '/api/auth/logout') continue;
    for (const [method, operation] of Object.entries(methods)) {
      const pathParams: Record<string, JsonSchema> = {};
      const query: Record<string, JsonSchema> = {};
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path') pathParams[parameter.name] = parameter.schema;
        if (parameter.in === 'query') query[parameter.name] = parameter.schema;
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const answers = Object.fromEntries(
        Object.entries(operation.responses ?? {}).map(([status, r]) => [
          status,
          Object.keys(r.content ?? {}),
        ]),
      );
      result.push({
        method: method.toUpperCase(),
        path,
        pathParams,
        query,
        answers,
        ...(body ? { body } : {}),
      });
    }
  }
  return result;
}

function plan(ops: Operation[]): fc.Arbitrary<Planned> {
  return fc.nat({ max: ops.length - 1 }).chain((index) => {
    const op = ops[index]!;
    const params: Record<string, fc.Arbitrary<{ pick: number; odd?: string }>> = {};
    for (const name of Object.keys(op.pathParams)) {
      params[name] = fc.oneof(
        { weight: 5, arbitrary: fc.nat().map((pick) => ({ pick })) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_SEGMENTS).map((odd) => ({ pick: 0, odd })) },
        {
          weight: 1,
          arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).map((s) => ({ pick: 0, odd: encode(s) })),
        },
      );
    }
    const queryNames = Object.keys(op.query);
    const query =
      queryNames.length === 0
        ? fc.constant([] as Array<[string, unknown]>)
        : fc.array(
            fc
              .constantFrom(...queryNames)
              .chain((name) =>
                fc
                  .oneof(validValue(op.query[name]!, name), oddValue(op.query[name]!, name))
                  .map((value) => [name, value] as [string, unknown]),
              ),
            { maxLength: 3 },
          );
    return fc.record({
      op: fc.constant(index),
      params: fc.record(params),
      query,
      body: op.body ? bodyText(op.body) : fc.constant(undefined),
      auth: fc.oneof(
        { weight: 12, arbitrary: fc.constant<Planned['auth']>('token') },
        fc.constantFrom<Planned['auth']>('none', 'bad', 'malformed'),
      ),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        fc.constantFrom(...CONTENT_TYPES),
      ),
    });
  });
}

/** The fuzzer's view of the catalogue: ids to aim at, and a fingerprint of everything a write can change. */
class Catalogue {
  productIds: number[] = [];
  groupIds: number[] = [];

  constructor(
    private readonly baseUrl: string,
    private token: string,
  ) {}

  setToken(token: string): void {
    this.token = token;
  }

  private async get(path: string): Promise<unknown> {
    const res = await fetch(this.baseUrl + path, { headers: { authorization: `Bearer ${this.token}` } });
    return ((await res.json()) as { data?: unknown }).data;
  }

  async seed(): Promise<void> {
    const post = async (path: string, body: unknown, method = 'POST') => {
      const res = await fetch(this.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await res.json()) as { data?: { id?: number } }).data;
    };
    const suffix = Math.random().toString(36).slice(2, 8);
    const main = await post('/api/product', {
      supplierPid: `FUZZ-${suffix}`,
      name: 'Fuzz',
      ean: '4006381333115',
    });
    if (main?.id) {
      await post(`/api/product/${main.id}/variants`, { supplierPid: `FUZZ-${suffix}-V`, name: 'Variante' });
      await post(`/api/product/${main.id}/texts/long/eng`, { value: 'Long text' }, 'PUT');
      await post(
        `/api/product/${main.id}/features/COLOR`,
        { values: [{ lang: 'deu', value: 'rot' }] },
        'PUT',
      );
    }
    await post('/api/group', { name: `Gruppe ${suffix}` });
  }

  /** Deletes products beyond the first `keep` (variants go with their main products). */
  async trim(keep: number): Promise<void> {
    for (const id of this.productIds.slice(keep)) {
      await fetch(`${this.baseUrl}/api/product/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${this.token}` },
      });
    }
  }

  /** Reads the state; returns its fingerprint and refreshes the ids to aim at. */
  async fingerprint(): Promise<string> {
    const products = ((await this.get('/api/product?all=true')) ?? []) as Array<{ id: number }>;
    const groups = ((await this.get('/api/group')) ?? []) as Array<{ id: number }>;
    this.productIds = products.map((p) => p.id);
    this.groupIds = groups.map((g) => g.id);
    const details = [];
    for (const id of this.productIds.slice(0, 2)) {
      details.push(await this.get(`/api/product/${id}/texts/short`));
      details.push(await this.get(`/api/product/${id}/texts/long`));
      details.push(await this.get(`/api/product/${id}/features`));
    }
    details.push(await this.get('/api/group/tree'));
    details.push(await this.get('/api/workspace'));
    return JSON.stringify([products, groups, details]);
  }
}

function segment(
  name: string,
  path: string,
  value: { pick: number; odd?: string },
  catalogue: Catalogue,
): string {
  if (value.odd !== undefined) return value.odd;
  if (name === 'lang') return ['deu', 'eng', 'fra', 'ger'][value.pick % 4]!;
  if (name === 'ftidref') return ['COLOR', 'SIZE', '0173-1%2302-AAF040%23004'][value.pick % 3]!;
  const ids =
    name === 'productId' || !path.startsWith('/api/group') ? catalogue.productIds : catalogue.groupIds;
  return String(ids.length === 0 ? value.pick : ids[value.pick % ids.length]);
}

/** Percent-encodes like encodeURIComponent; a lone surrogate becomes its (invalid) UTF-8 bytes. */
function encode(text: string): string {
  return text.replace(/[\s\S]/gu, (char) => {
    if (char.length === 1 && char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff) {
      const unit = char.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(char);
  });
}

function queryString(query: Array<[string, unknown]>): string {
  if (query.length === 0) return '';
  return `?${query.map(([k, v]) => `${k}=${encode(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`).join('&')}`;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  let token = await options.login();
  const doc = (await (await fetch(`${options.baseUrl}/api/openapi.json`)).json()) as Doc;
  const ops = operations(doc);
  const catalogue = new Catalogue(options.baseUrl, token);
  await catalogue.seed();
  let state = await catalogue.fingerprint();
  const summary: FuzzSummary = { requests: 0, statuses: {}, findings: [] };
  let chunk: Planned[] = [];
  const arbitrary = plan(ops);
  const report = (finding: Finding) => {
    summary.findings.push(finding);
    options.onFinding?.(finding);
  };
  for (let index = 0; index < options.count; index++) {
    if (index % CHUNK === 0) {
      chunk = fc.sample(arbitrary, {
        numRuns: Math.min(CHUNK, options.count - index),
        seed: options.seed + index / CHUNK,
      });
    }
    const planned = chunk[index % CHUNK]!;
    const op = ops[planned.op]!;
    const path =
      op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        segment(name, op.path, planned.params[name] ?? { pick: 0 }, catalogue),
      ) + queryString(planned.query);
    const headers: Record<string, string> = {};
    if (planned.auth === 'token') headers.authorization = `Bearer ${token}`;
    if (planned.auth === 'bad') headers.authorization = 'Bearer 00000000-0000-4000-8000-000000000000';
    if (planned.auth === 'malformed') headers.authorization = 'Bearer';
    const withBody = planned.body !== undefined && op.method !== 'GET';
    if (withBody && planned.contentType) headers['content-type'] = planned.contentType;
    const described = `${op.method} ${path} ${JSON.stringify(headers)} ${withBody ? planned.body!.slice(0, 300) : ''}`;
    let status = 0;
    let text = '';
    let contentType = '';
    try {
      const res = await fetch(options.baseUrl + path, {
        method: op.method,
        headers,
        ...(withBody ? { body: planned.body } : {}),
      });
      status = res.status;
      contentType = res.headers.get('content-type') ?? '';
      text = await res.text();
    } catch (error) {
      report({ kind: 'transport', request: described, answer: String(error) });
      continue;
    }
    summary.requests++;
    summary.statuses[status] = (summary.statuses[status] ?? 0) + 1;
    const answer = `${status} ${text.slice(0, 300)}`;
    if (status >= 500) report({ kind: 'status-5xx', request: described, answer });
    // JSON in the envelope, unless the description documents another media type for this status
    // (GET /api/export's 200 is the catalogue as XML).
    // GET /api/export documents three: XML, CSV and XLSX (text types with their charset).
    const documented = op.answers[String(status)] ?? [];
    if (documented.length > 0 && !documented.includes('application/json')) {
      const named = documented.some(
        (type) => contentType === type || contentType === `${type}; charset=utf-8`,
      );
      if (!named) report({ kind: 'content-type', request: described, answer: `${contentType} ${answer}` });
      continue;
    }
    if (contentType !== 'application/json; charset=utf-8') {
      report({ kind: 'content-type', request: described, answer: `${contentType} ${answer}` });
    }
    const problem = envelopeProblem(status, text);
    if (problem) report({ kind: 'envelope', request: described, answer: `${problem}: ${answer}` });
    if (WRITES.has(op.method) || op.path === '/api/auth/login') {
      const after = await catalogue.fingerprint();
      if (status >= 300 && after !== state) {
        report({ kind: 'partial-write', request: described, answer });
      }
      state = after;
    }
    if (catalogue.productIds.length < 2 || catalogue.groupIds.length === 0) {
      await catalogue.seed();
      state = await catalogue.fingerprint();
    }
    // Successful creates pile up; a small catalogue keeps the fingerprint, and so long runs, fast.
    if (catalogue.productIds.length > MAX_PRODUCTS) {
      await catalogue.trim(MAX_PRODUCTS / 2);
      state = await catalogue.fingerprint();
    }
    // A burst of failed logins locks the fuzzer's client for a while; a fresh token is not needed then.
    if (status === 401 && planned.auth === 'token' && text.includes('TOKEN_')) {
      token = await options.login();
      catalogue.setToken(token);
    }
    options.onProgress?.(summary.requests, summary);
  }
  return summary;
}

function envelopeProblem(status: number, text: string): string | undefined {
  let body: { success?: unknown; error?: unknown; code?: unknown; data?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'not JSON';
  }
  if (typeof body !== 'object' || body === null || typeof body.success !== 'boolean')
    return 'no success flag';
  if (body.success) return status < 300 ? undefined : 'success with an error status';
  if (typeof body.error !== 'string' || body.error === '') return 'no error sentence';
  const entry = ERROR_CATALOGUE[body.code as keyof typeof ERROR_CATALOGUE];
  if (!entry) return `code ${String(body.code)} is not in the catalogue`;
  if (entry[0] !== status) return `code ${String(body.code)} belongs to status ${entry[0]}`;
  return undefined;
}
