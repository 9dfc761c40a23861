import { createServer } from 'node:net';

/**
 * Whether host:port can be bound now (nothing else listens there): tried with a throw-away
 * server, so that a busy port is refused before any setting changes. Resolves to the error
 * code (EADDRINUSE, EACCES, EADDRNOTAVAIL) or undefined when free.
 */
export function probePort(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'EUNKNOWN'));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
