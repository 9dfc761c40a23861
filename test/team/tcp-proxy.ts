import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the PostgreSQL server, for outage tests: `cut()` closes its port and
 * every connection through it (as a server going down would), `restore()` listens again on the
 * same port. `stall()` stops every byte in both directions while keeping every connection open
 * and accepting new ones (a frozen server or a network partition: nothing is refused, nothing
 * answers); `resume()` lets the held bytes through. `freeze(text)` silences for good only the
 * open connections whose start-up message held `text` (an application_name): a link that died
 * without a word, while new connections work. `refuse()` listens again but resets every new
 * connection at once and counts them (`refused`): the database is still down, and a test can wait
 * for a number of attempts to reach it, where a closed port shows none.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  /** The first bytes each client sent: PostgreSQL's start-up message, with the application_name. */
  private readonly startups = new Map<Socket, string>();
  private stalled = false;
  private refusing = false;
  /** Connections reset since the last refuse(). */
  refused = 0;
  port = 0;

  constructor(
    private readonly targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  async restore(): Promise<void> {
    this.refusing = false;
    if (!this.server) await this.listen();
  }

  async refuse(): Promise<void> {
    this.refusing = true;
    this.refused = 0;
    if (!this.server) await this.listen();
  }

  private async listen(): Promise<void> {
    const server = createServer((client) => {
      if (this.refusing) {
        this.refused++;
        client.resetAndDestroy();
        return;
      }
      const upstream = connect({ host: this.targetHost, port: this.targetPort });
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      client.once('close', () => this.startups.delete(client));
      for (const socket of pair) {
        this.sockets.add(socket);
        // Either side closing ends the other, as with a real server: a client that gives up on a
        // stalled connection leaves nothing open behind the proxy.
        socket.on('close', () => {
          this.sockets.delete(socket);
          this.pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        });
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      if (!this.stalled) this.flow(pair);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.pairs.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  stall(): void {
    this.stalled = true;
    for (const [client, upstream] of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  freeze(text: string): number {
    let frozen = 0;
    for (const [client, upstream] of this.pairs) {
      if (!this.startups.get(client)?.includes(text)) continue;
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      frozen++;
    }
    return frozen;
  }

  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) this.flow(pair);
  }

  /**
   * Lets a pair's bytes through; the client's first bytes (its start-up message) are kept for
   * freeze(). The listener goes on only here, with the pipe: a 'data' listener alone would set
   * a stalled socket flowing and lose its bytes.
   */
  private flow([client, upstream]: [Socket, Socket]): void {
    if (!this.startups.has(client)) {
      client.once('data', (chunk: Buffer) => this.startups.set(client, chunk.toString('latin1')));
    }
    client.pipe(upstream).pipe(client);
  }
}
