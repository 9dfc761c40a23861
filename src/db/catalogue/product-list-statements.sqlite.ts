import type Database from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import type { WorkspaceDb } from './catalogue-sql.js';
import type { ProductRowQuery } from './product-list-query.js';
import { ftsPhrase } from './product-sql.sqlite.js';
import { usesTrigrams } from './search-terms.js';

/**
 * The product list's statements on SQLite's read-only connection, prepared once per filter shape:
 * which filters a query has, whether its search uses the trigram index, and its limit (a literal
 * in the SQL: product-list-query.ts says why). Building the query with Kysely and preparing it
 * cost about as much as running a page; a shape is built once, from the SQL Kysely compiles for
 * it, so the two cannot drift.
 *
 * The shape's query is compiled with a distinct sentinel for every value it may bind; each
 * compiled parameter must be one of them (checked when the statement is prepared), which gives
 * the order in which a call passes the real values.
 */

type Value = (q: ProductRowQuery) => unknown;

/** Each bound value of a shape: its sentinel and how to take the real one from a query. */
function sentinels(q: ProductRowQuery): { query: ProductRowQuery; values: Map<unknown, Value> } {
  const search = q.search && {
    // Of the same kind as the real text: with the search index or without.
    text: usesTrigrams(q.search.text) ? '\u0000q\u0000' : '\u0000q',
    pattern: '\u0000pattern',
  };
  const query: ProductRowQuery = {
    lang: '\u0000lang',
    all: q.all,
    groupId: q.groupId === undefined ? undefined : -1,
    afterId: q.afterId === undefined ? undefined : -2,
    limit: q.limit,
    updatedSince: q.updatedSince === undefined ? undefined : '\u0000updatedSince',
    supplierPid: q.supplierPid === undefined ? undefined : '\u0000supplierPid',
    ean: q.ean === undefined ? undefined : '\u0000ean',
    search,
  };
  const values = new Map<unknown, Value>([
    [query.lang, (r) => r.lang],
    [-1, (r) => r.groupId],
    [-2, (r) => r.afterId],
    [query.updatedSince, (r) => r.updatedSince],
    [query.supplierPid, (r) => r.supplierPid],
    [query.ean, (r) => r.ean],
  ]);
  if (search) {
    values.set(search.text, (r) => r.search!.text);
    values.set(ftsPhrase(search.text), (r) => ftsPhrase(r.search!.text));
    values.set(search.pattern, (r) => r.search!.pattern);
  }
  return { query, values };
}

/** What decides a query's SQL: everything but the values it binds. */
function shapeOf(q: ProductRowQuery): string {
  const has = (value: unknown) => (value === undefined ? '-' : '+');
  const search = q.search === undefined ? '-' : usesTrigrams(q.search.text) ? 'index' : 'scan';
  return [
    q.groupId === undefined ? (q.all ? 'all' : 'main') : 'group',
    has(q.afterId),
    has(q.updatedSince),
    has(q.supplierPid),
    has(q.ean),
    search,
    q.limit ?? '',
  ].join(' ');
}

/** Shapes kept per connection: the usual ones are a handful; odd limits must not grow it without end. */
const MAX_SHAPES = 256;

interface Prepared {
  statement: Database.Statement;
  values: Value[];
}

/**
 * The statement of one query kind (`compile` builds it for a query) per connection and shape;
 * returns the statement for a query and the values to call it with.
 */
export function shapedStatement(compile: (db: WorkspaceDb, q: ProductRowQuery) => CompiledQuery) {
  const byReader = new WeakMap<Database.Database, Map<string, Prepared>>();
  return (db: WorkspaceDb, reader: Database.Database, q: ProductRowQuery) => {
    let shapes = byReader.get(reader);
    if (!shapes) byReader.set(reader, (shapes = new Map()));
    const shape = shapeOf(q);
    let prepared = shapes.get(shape);
    if (!prepared) {
      prepared = prepare(db, reader, q, compile);
      if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
      shapes.set(shape, prepared);
    }
    return { statement: prepared.statement, args: prepared.values.map((value) => value(q)) };
  };
}

function prepare(
  db: WorkspaceDb,
  reader: Database.Database,
  q: ProductRowQuery,
  compile: (db: WorkspaceDb, q: ProductRowQuery) => CompiledQuery,
): Prepared {
  const { query, values } = sentinels(q);
  const { sql, parameters } = compile(db, query);
  const taken = parameters.map((parameter) => {
    const value = values.get(parameter);
    if (!value) throw new Error(`parameter ${JSON.stringify(parameter)} has no sentinel: ${sql}`);
    return value;
  });
  return { statement: reader.prepare(sql), values: taken };
}
