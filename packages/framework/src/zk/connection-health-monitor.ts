import { performance } from 'node:perf_hooks';

export interface ConnectionHealthMonitorOptions {
  /** The requested session timeout; replaced by the negotiated one once connected. */
  readonly sessionTimeoutMs: number;
  /** How many servers the connection tries in turn (the list can change at run time). */
  readonly serverCount: () => number;
  /** Sends a cheap request; resolves true when the server answered. */
  readonly probe: () => Promise<boolean>;
  /** No reply for too long while connected: the connection must be replaced. */
  readonly onDead: (reason: string) => void;
  /** A connection attempt whose handshake has not completed in time: move to the next host. */
  readonly onHandshakeStuck: () => void;
  /** Identity of the current socket (a new object = a new connection attempt). */
  readonly currentSocket: () => object | undefined;
  /** Send time of the newest request the server answered (see ZooKeeperConnection). */
  readonly lastHeardMs: () => number | undefined;
  /** Whether the connection is up: the connection's, which the monitor does not keep a copy of. */
  readonly isConnected: () => boolean;
}

/**
 * nzc has no read timeout: a hung (SIGSTOP) or silent server leaves it "connected" forever, and
 * a host that accepts TCP but never answers the handshake blocks it (its connect timer stops at
 * TCP connect). This monitor closes both gaps:
 * - connected: any reply counts as a heartbeat; after a third of the negotiated timeout without
 *   one it sends a probe, and after two thirds without one the connection is declared dead
 *   (ZooKeeper's own client uses the same read timeout);
 * - connecting: an attempt still not through its handshake after sessionTimeout / #servers is
 *   dropped so the next host is tried.
 */
export class ConnectionHealthMonitor {
  readonly #options: ConnectionHealthMonitorOptions;
  #sessionTimeoutMs: number;
  #timer: NodeJS.Timeout | undefined;
  #lastTrafficAt = 0;
  #probing = false;
  #attemptSocket: object | undefined;
  #attemptStartedAt = 0;

  constructor(options: ConnectionHealthMonitorOptions) {
    this.#options = options;
    this.#sessionTimeoutMs = options.sessionTimeoutMs;
  }

  get readTimeoutMs(): number {
    return Math.floor((this.#sessionTimeoutMs * 2) / 3);
  }

  /**
   * Time for one connection attempt's handshake: the session timeout shared among the hosts,
   * but at most a third of it, so even a single host gets several attempts within the session
   * (a restarting server can accept a connection it never reads).
   */
  get connectTimeoutMs(): number {
    const perHost = this.#sessionTimeoutMs / Math.max(1, this.#options.serverCount());
    return Math.max(500, Math.floor(Math.min(perHost, this.#sessionTimeoutMs / 3)));
  }

  start(): void {
    this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  trafficSeen(): void {
    this.#lastTrafficAt = performance.now();
  }

  connected(negotiatedSessionTimeoutMs: number): void {
    if (negotiatedSessionTimeoutMs > 0) this.#sessionTimeoutMs = negotiatedSessionTimeoutMs;
    this.trafficSeen();
  }

  disconnected(): void {
    this.#attemptSocket = undefined;
  }

  /** Sends a probe at once (after a suspected stall). */
  probeNow(): void {
    this.#sendProbe();
  }

  #schedule(): void {
    // Tick often enough to act within ~10% of the deadlines, but not more than every 50 ms.
    const tickMs = Math.max(50, Math.min(1000, Math.floor(this.#sessionTimeoutMs / 10)));
    this.#timer = setTimeout(() => {
      this.#tick();
      if (this.#timer) this.#schedule();
    }, tickMs);
    this.#timer.unref();
  }

  #tick(): void {
    const now = performance.now();
    if (this.#options.isConnected()) {
      const silentMs = now - this.#lastTrafficAt;
      // nzc's own pings keep a socket busy but say nothing of when the server last heard the
      // session (what LOST and a hold's validity count from): probe on that age too.
      const heardAgoMs = now - (this.#options.lastHeardMs() ?? this.#lastTrafficAt);
      if (silentMs > this.readTimeoutMs) {
        // onDead marks the connection down (or it is closing): no second verdict next tick.
        this.#options.onDead(`no reply from the server for ${Math.round(silentMs)} ms`);
      } else if (Math.max(silentMs, heardAgoMs) > this.#sessionTimeoutMs / 3) {
        this.#sendProbe();
      }
      return;
    }
    const socket = this.#options.currentSocket();
    if (socket !== this.#attemptSocket) {
      this.#attemptSocket = socket;
      this.#attemptStartedAt = now;
    } else if (socket && now - this.#attemptStartedAt > this.connectTimeoutMs) {
      this.#attemptSocket = undefined;
      this.#options.onHandshakeStuck();
    }
  }

  #sendProbe(): void {
    if (this.#probing) return;
    this.#probing = true;
    this.#options
      .probe()
      .catch(() => false)
      .finally(() => {
        this.#probing = false;
      });
  }
}
