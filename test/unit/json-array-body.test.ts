import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { NOT_UTF8_REFUSAL, parseJsonText } from '../../src/http/body-checks.js';
import { parseJsonArray } from '../../src/http/bulk-body.js';

/**
 * The bulk upsert's JSON body, parsed an element at a time as it arrives, against the one body
 * parser every other route uses (the whole text at once): for any bytes, cut anywhere, the same
 * value or the same refusal.
 */

const parseJson = Fastify().getDefaultJsonParser('error', 'error');
const request = {
  headers: { 'content-type': 'application/json' },
  routeOptions: { bodyLimit: 1024 * 1024 },
} as unknown as FastifyRequest;

type Outcome = { value: unknown } | { error: string; code: unknown };

const outcome = (promise: Promise<unknown>): Promise<Outcome> =>
  promise.then(
    (value) => ({ value }),
    (error: Error & { code?: unknown }) => ({ error: error.message, code: error.code }),
  );

/** As every route reads a body (installJsonBodyParser): the bytes whole, UTF-8 checked, then parsed. */
function whole(bytes: Buffer): Promise<Outcome> {
  return outcome(
    new Promise((resolve, reject) => {
      if (!isUtf8(bytes)) return reject(NOT_UTF8_REFUSAL);
      parseJsonText(parseJson, request, bytes.toString(), (error, value) =>
        error ? reject(error) : resolve(value),
      );
    }),
  );
}

/** The bytes in pieces cut at `cuts`, through the bulk route's parser. */
function inPieces(bytes: Buffer, cuts: number[]): Promise<Outcome> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces = [0, ...at, bytes.length]
    .slice(1)
    .map((end, i, ends) => bytes.subarray(i ? ends[i - 1] : 0, end));
  const payload = Readable.from(pieces.filter((p) => p.length > 0));
  return outcome(parseJsonArray(parseJson, request, payload));
}

const spaces = fc.constantFrom('', ' ', '\n', '\r\n\t ', '\u00a0');
const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
/** An array as a client may write it, with whitespace (some of it not JSON's) between the parts. */
const arrayText = fc
  .tuple(spaces, fc.array(fc.tuple(spaces, value, spaces), { maxLength: 6 }), spaces)
  .map(([before, items, after]) => `${before}[${items.map(([a, v, b]) => a + v + b).join(',')}]${after}`);
/** Texts near an array that are not one, or not JSON. */
const mangled = fc
  .tuple(
    arrayText,
    fc.nat(),
    fc.constantFrom('', ',', ']', '[', '}', '{', '"', '\\', 'x', '\uFEFF', '__proto__'),
  )
  .map(
    ([text, at, insert]) =>
      text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)),
  );
const cuts = fc.array(fc.nat(), { maxLength: 8 });

describe('a bulk body parsed element by element', () => {
  it('gives the value JSON.parse gives the whole array', async () => {
    await fc.assert(
      fc.asyncProperty(arrayText, cuts, async (text, at) => {
        const bytes = Buffer.from(text);
        const expected = await whole(bytes);
        expect(await inPieces(bytes, at)).toEqual(expected);
        // Not JSON's whitespace, or keys that could reach a prototype: refused by design.
        if (!/\u00a0|"__proto__"|"constructor"/.test(text))
          expect(expected).toEqual({ value: JSON.parse(text) });
      }),
      { numRuns: 400 },
    );
  });

  it('answers any other text exactly as the body parser of every route does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(mangled, fc.string(), value), cuts, async (text, at) => {
        const bytes = Buffer.from(text);
        expect(await inPieces(bytes, at)).toEqual(await whole(bytes));
      }),
      { numRuns: 600 },
    );
  });

  it.each([
    ['a poison key in an element', '[{"a":1},{"__proto__":{"x":1}}]'],
    ['a poison key after a valid element, cut inside it', '[{"a":1},{"constructor":{"prototype":{}}}]'],
    ['a trailing comma', '[{"a":1},]'],
    ['a leading comma', '[,{"a":1}]'],
    ['a second array', '[1][2]'],
    ['an object', '{"supplierPid":"A"}'],
    ['whitespace only', ' \n '],
    ['a byte-order mark', '\uFEFF[{"a":1}]'],
    ['an unclosed array', '[{"a":1}'],
    ['a bracket inside a string', '[{"a":"]"},{"b":"\\"]"}]'],
  ])('%s: as the whole-body parser', async (_what, text) => {
    const bytes = Buffer.from(text);
    for (const at of [[], [1], [3, 9], [text.length - 1]])
      expect(await inPieces(bytes, at)).toEqual(await whole(bytes));
  });

  it('refuses bytes that are not UTF-8, also when a character is cut between pieces', async () => {
    const bytes = Buffer.concat([
      Buffer.from('[{"supplierPid":"CT'),
      Buffer.from([0xff]),
      Buffer.from('10"}]'),
    ]);
    expect(await inPieces(bytes, [20])).toEqual({
      error: 'Request body is not valid UTF-8',
      code: 'INVALID_JSON',
    });
    const umlaut = Buffer.from('[{"supplierPid":"Größe"}]');
    expect(await inPieces(umlaut, [20])).toEqual({ value: [{ supplierPid: 'Größe' }] });
  });
});
