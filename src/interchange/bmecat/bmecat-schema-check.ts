import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * A BMEcat file checked against the BMEcat 2005.1 schema by `xmllint --stream` (Debian's
 * libxml2-utils: a 225 MB file in 12 s with 10 MB of memory), for `pim validate`. BMEcat 2005
 * documents in another 2005 namespace (2005, 2005.2, a supplier's 2005+onto) are validated as 2005.1:
 * their root's namespace is swapped in the stream, lines unchanged. Without xmllint, a file up to
 * 64 MB is checked by the bundled libxml2 instead (bmecat-schema-wasm.ts, in memory); for a larger
 * one, or a file the schema does not apply to (BMEcat 1.2, no namespace, UTF-16 in another
 * namespace), the check is skipped and `note` says why.
 */

/** The bundled schema (schemas/bmecat/, unchanged from BME e.V.). */
export const BMECAT_XSD = fileURLToPath(
  new URL('../../../schemas/bmecat/bmecat_2005_1.xsd', import.meta.url),
);

const NS_2005_1 = 'http://www.bmecat.org/bmecat/2005.1';
/** The largest file the bundled validator takes: it holds the whole document (a 225 MB file needed 1.7 GB). */
export const IN_MEMORY_LIMIT = 64 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

export interface SchemaProblem {
  /** 0 when the problem has no line (the file could not be parsed). */
  line: number;
  /** The column, where the validator says it (the bundled one does, xmllint --stream not; 0: unknown). */
  column?: number;
  message: string;
}

export interface SchemaCheck {
  /** What checked the file, or null when nothing could. */
  validator: string | null;
  note: string | null;
  problems: SchemaProblem[];
}

export async function checkAgainstSchema(path: string, xsd = BMECAT_XSD): Promise<SchemaCheck> {
  const head = await readHead(path);
  const utf16 =
    head[0] === 0xff ||
    head[0] === 0xfe ||
    (head[0] === 0 && head[1] === 0x3c) ||
    (head[0] === 0x3c && head[1] === 0);
  const text = head.toString('latin1');
  const root = /<(?:([\w.-]+):)?BMECAT\b[^>]*>/.exec(text);
  // The root's own namespace: the default one, or the one its prefix is bound to.
  const declaration = root && new RegExp(`\\sxmlns${root[1] ? `:${root[1]}` : ''}\\s*=\\s*["']([^"']*)["']`);
  const namespace = root && declaration ? declaration.exec(root[0])?.[1] : undefined;
  const skip = (note: string): SchemaCheck => ({ validator: null, note, problems: [] });
  if (!utf16 && !root) return skip('no BMECAT root element near the start of the file: schema check skipped');
  const swap =
    namespace !== undefined &&
    namespace !== NS_2005_1 &&
    namespace.startsWith('http://www.bmecat.org/bmecat/2005');
  if (!utf16 && namespace !== NS_2005_1 && !swap)
    return skip(
      `the file's namespace is ${namespace ? `'${namespace}'` : 'missing'}: the BMEcat 2005.1 schema applies to BMEcat 2005 documents; schema check skipped`,
    );
  if (utf16 && !head.includes(Buffer.from(NS_2005_1, 'utf16le')))
    return skip('a UTF-16 file in a namespace other than 2005.1: schema check skipped');
  const swapped = swap ? { from: namespace, at: root!.index, length: root![0].length } : undefined;
  const against = `against ${xsd.split(/[\\/]/).pop()}${swap ? ` (the root's namespace read as 2005.1)` : ''}`;
  const result = await runXmllint(xsd, path, swapped);
  if (result !== undefined) return { validator: `xmllint --stream ${against}`, note: null, problems: result };
  // No xmllint: the bundled libxml2, which reads the file whole.
  const { size } = await stat(path);
  if (size > IN_MEMORY_LIMIT)
    return skip(
      `xmllint is not installed (Debian: apt-get install libxml2-utils) and the bundled validator reads a file whole, up to ${IN_MEMORY_LIMIT / 1024 / 1024} MB: schema check skipped`,
    );
  let bytes: Buffer = await readFile(path);
  if (swapped) bytes = withRootSwapped(bytes, swapped);
  // Loaded only here: it instantiates libxml2's WebAssembly, which no other command needs.
  const { validateInMemory } = await import('./bmecat-schema-wasm.js');
  return {
    validator: `the bundled libxml2 (libxml2-wasm, the file read whole; xmllint is not installed) ${against}`,
    note: null,
    problems: validateInMemory(xsd, bytes),
  };
}

/** The bytes with the root tag's namespace read as 2005.1 (the tag lies in the head, latin1: a byte a character). */
function withRootSwapped(bytes: Buffer, swap: { from: string; at: number; length: number }): Buffer {
  const tag = bytes
    .subarray(swap.at, swap.at + swap.length)
    .toString('latin1')
    .replace(swap.from, NS_2005_1);
  return Buffer.concat([
    bytes.subarray(0, swap.at),
    Buffer.from(tag, 'latin1'),
    bytes.subarray(swap.at + swap.length),
  ]);
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Runs xmllint on the file (or on its stream with the root tag's namespace swapped); undefined when
 * xmllint cannot be run. Its messages name the line only (no column with --stream).
 */
function runXmllint(
  xsd: string,
  path: string,
  swap: { from: string; at: number; length: number } | undefined,
): Promise<SchemaProblem[] | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--noout', '--stream', '--schema', xsd, swap ? '-' : path], {
      stdio: [swap ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      // Bounded: a file with millions of problems is cut at a few MB of messages.
      if (stderr.length < 4 * 1024 * 1024) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? resolve(undefined) : reject(error),
    );
    child.on('close', (code) => {
      const problems = parseXmllint(stderr);
      // A file xmllint cannot parse gets "failed to parse" without a line: pim's checks say where.
      if (code !== 0 && problems.length === 0)
        problems.push({
          line: 0,
          message: 'xmllint could not parse the file, so it was not checked against the schema',
        });
      resolve(problems);
    });
    if (swap && child.stdin) {
      const input = child.stdin;
      input.on('error', () => undefined);
      void (async () => {
        let first = true;
        for await (const chunk of createReadStream(path, {
          highWaterMark: HEAD_BYTES,
        }) as AsyncIterable<Buffer>) {
          let bytes = chunk;
          if (first) {
            // The root tag lies within the head read before.
            bytes = withRootSwapped(bytes, swap);
            first = false;
          }
          if (!input.write(bytes)) await new Promise((r) => input.once('drain', r));
        }
        input.end();
      })().catch(() => input.destroy());
    }
  });
}

/** xmllint's messages ("file:12: Schemas validity error : Element '{ns}X': ...") as problems. */
export function parseXmllint(stderr: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const line of stderr.split('\n')) {
    const match =
      /^.*?:(\d+): (?:Schemas validity error|parser error|validity error|namespace error|element \w+: Schemas validity error) : (.*)$/.exec(
        line,
      );
    if (match) problems.push({ line: Number(match[1]), message: match[2]!.replace(/\{[^}]*\}/g, '').trim() });
  }
  return problems;
}
