import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorCodes } from 'fastify';

/**
 * A request body (a file to import) streamed into a temporary folder of its own, up to `limit`
 * bytes: more is a 413 and nothing is left behind. The caller removes `dir` once done with it.
 * REST's POST /api/import and the window's upload both take a file this way.
 */
export async function receiveUpload(
  body: Readable,
  limit: number,
  prefix: string,
): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const path = join(dir, 'catalogue.xml');
  try {
    await pipeline(body, limitTo(limit), createWriteStream(path));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, path };
}

/** Passes bytes on until more than `limit` came: then 413. */
function limitTo(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      else callback(null, chunk);
    },
  });
}
