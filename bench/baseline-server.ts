/**
 * The bare baseline: node:http answering a small JSON envelope, nothing else.
 * Run as a child process; prints "baseline listening on http://127.0.0.1:PORT".
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const BODY = JSON.stringify({ success: true, data: { id: 1, name: 'x' } });

const server = createServer((_request, response) => {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(BODY),
  });
  response.end(BODY);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`baseline listening on http://127.0.0.1:${port}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
