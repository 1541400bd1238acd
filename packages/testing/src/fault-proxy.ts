// A TCP proxy in front of one ZooKeeper server so tests can break the network between a
// client and its server without touching either: partition it, reset it, slow it down.
//
// Semantics, chosen to match what a real network does to TCP:
//  - blackhole(): a partition. Connections stay open and new ones are accepted, but no
//    byte (nor a FIN) crosses in either direction; reading stops, so the kernel buffers
//    fill as they would behind a silent network. Nothing is discarded: TCP retransmits
//    across a partition, so heal() delivers what was held, in order, and any close that
//    happened meanwhile. A client that gave up on a connection will have closed it
//    itself; one that waited sees its replies arrive late, as on a real network.
//  - drop(): every current connection is reset (both sides see ECONNRESET), and so is
//    every new one until heal() or another mode.
//  - delay(ms): every chunk is forwarded `ms` later, in each direction, order kept; a round
//    trip gains 2 x ms.
//  - heal(): plain pass-through again.
//  - loseReply(): independent of the mode above; the next matching request is applied by the
//    server but its reply (and every byte after it on that connection) never reaches the
//    client, whose connection is reset shortly after (lost-reply-trap.ts).
import net from 'node:net';
import { LOOPBACK } from './free-port.js';
import { LostReplyTrap, type LoseReplyOptions, type LostReply } from './lost-reply-trap.js';
import { ProxiedConnection, type FaultMode } from './proxied-connection.js';

/** Options of {@link FaultProxy.start}. */
export interface FaultProxyOptions {
  /** Server to forward to. Default '127.0.0.1'. */
  targetHost?: string;
  /** The server's client port to forward to. Required. */
  targetPort: number;
}

/**
 * A TCP proxy in front of one ZooKeeper server, so a test can break the network between a
 * client and its server: {@link blackhole} (a partition: nothing crosses, bytes are held),
 * {@link drop} (reset every connection), {@link delay} (add latency per direction) and
 * {@link heal} (pass-through again, held bytes delivered in order). Apart from those,
 * {@link loseReply} loses one reply the way a server restart does: the write is applied, its
 * reply never arrives, the connection is reset, and the session survives the reconnect.
 *
 * @example
 * ```ts
 * await using server = await TestingServer.start();
 * await using proxy = await FaultProxy.start({ targetPort: server.port });
 * const client = createFramework({ connectString: proxy.connectString, sessionTimeoutMs: 4000 });
 * await client.start();
 * proxy.blackhole(); // the client sees SUSPENDED, then LOST after the session timeout
 * proxy.heal();
 *
 * const lost = proxy.loseReply({ ops: ['setData'] });
 * await client.setData('/config', data); // retried after CONNECTION_LOSS: applied twice
 * await lost; // { opCode: 5, xid, err: 0, path: '/config' }
 * ```
 */
export class FaultProxy implements AsyncDisposable {
  /** Always `'127.0.0.1'`: the proxy listens on loopback only. */
  readonly host = LOOPBACK;
  /** The proxy's own port, picked free at start. */
  readonly port: number;
  /** The server's host the proxy forwards to. */
  readonly targetHost: string;
  /** The server's port the proxy forwards to. */
  readonly targetPort: number;
  #server: net.Server;
  #connections = new Set<ProxiedConnection>();
  #mode: FaultMode = { type: 'PASS' };
  #trap: LostReplyTrap | undefined;
  #closed = false;

  private constructor(server: net.Server, options: Required<FaultProxyOptions>) {
    this.#server = server;
    this.port = (server.address() as net.AddressInfo).port;
    this.targetHost = options.targetHost;
    this.targetPort = options.targetPort;
    server.on('connection', (socket) => this.#accept(socket));
  }

  /** Listens on a free 127.0.0.1 port, in pass-through mode. */
  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const server = net.createServer({ noDelay: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, LOOPBACK, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    return new FaultProxy(server, { targetHost: LOOPBACK, ...options });
  }

  /** `127.0.0.1:<proxy port>`: give this to the client under test. */
  get connectString(): string {
    return `${this.host}:${this.port}`;
  }

  /** Client connections currently open through the proxy. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /** The current fault, e.g. `{ type: 'DELAY', delayMs: 200 }`. */
  get mode(): FaultMode {
    return this.#mode;
  }

  /** Partition: nothing crosses until heal() (see the file comment for what is held). */
  blackhole(): void {
    this.#setMode({ type: 'BLACKHOLE' });
    for (const connection of this.#connections) connection.stall();
  }

  /** Resets every connection now and every new one until the mode changes. */
  drop(): void {
    this.#setMode({ type: 'DROP' });
    for (const connection of this.#connections) connection.reset();
  }

  /** Forwards each chunk `delayMs` later, per direction, in order. */
  delay(delayMs: number): void {
    if (!Number.isFinite(delayMs) || delayMs < 0) {
      throw new Error(`FaultProxy.delay: delayMs must be >= 0, got ${delayMs}`);
    }
    this.#setMode({ type: 'DELAY', delayMs });
    this.#release();
  }

  /** Back to pass-through; held bytes are delivered. */
  heal(): void {
    this.#setMode({ type: 'PASS' });
    this.#release();
  }

  /**
   * Loses the reply of the next matching request, on any connection (one shot): the request
   * is forwarded, its reply and every byte after it on that connection are dropped, and
   * `resetAfterMs` later the connection is reset. Resolves then, with what was lost. A
   * connection that closes before the picked request's reply arrived un-picks it, and the
   * next matching request is picked instead. The other modes keep working meanwhile; heal()
   * does not disarm it, close() and `signal` do (rejecting the promise). Throws when one is
   * already pending or an op name is unknown.
   */
  loseReply(options: LoseReplyOptions = {}): Promise<LostReply> {
    if (this.#closed) throw new Error('FaultProxy is closed');
    if (this.#trap !== undefined) throw new Error('FaultProxy.loseReply: one is already pending');
    const trap = new LostReplyTrap(options, (done) => {
      if (this.#trap === done) this.#trap = undefined;
    });
    if (trap.pending) this.#trap = trap;
    return trap.promise;
  }

  /** Stops listening and destroys every connection. A second call does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#trap?.cancel(new Error('FaultProxy closed with a loseReply pending'));
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const connection of this.#connections) connection.destroy();
    this.#connections.clear();
    await closed;
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #setMode(mode: FaultMode): void {
    if (this.#closed) throw new Error('FaultProxy is closed');
    this.#mode = mode;
  }

  #release(): void {
    for (const connection of this.#connections) connection.heal();
  }

  #accept(socket: net.Socket): void {
    if (this.#closed || this.#mode.type === 'DROP') {
      socket.on('error', () => undefined);
      socket.resetAndDestroy();
      return;
    }
    const connection = new ProxiedConnection(
      socket,
      { host: this.targetHost, port: this.targetPort },
      {
        mode: () => this.#mode,
        tap: () => this.#trap,
        onClose: () => {
          this.#connections.delete(connection);
          this.#trap?.closed(connection);
        },
      },
    );
    this.#connections.add(connection);
  }
}
