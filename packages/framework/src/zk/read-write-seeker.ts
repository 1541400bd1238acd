/**
 * While connected to a read-only server, looks for a read-write one the way ZooKeeper's own
 * client does: asks the other servers, one at a time, with the `isro` four-letter word (the
 * reply is `rw` or `ro`), first after 100 ms, then at doubling intervals up to `maxIntervalMs`.
 * The first `rw` is reported; the connection then moves there. A server whose
 * `4lw.commands.whitelist` leaves out `isro` can never answer `rw`: the client then returns
 * only when its own server rejoins a quorum (and drops the read-only connection).
 */
import net from 'node:net';
import type { Logger } from '../logging/logger.js';
import type { ServerAddress } from '../paths/connect-string.js';

export interface ReadWriteSeekerOptions {
  readonly servers: readonly ServerAddress[];
  /** The longest pause between two probes. */
  readonly maxIntervalMs: number;
  /** Called with the first server that answers `rw`; the seeker has stopped by then. */
  readonly onFound: (server: ServerAddress) => void;
  readonly logger: Logger;
}

const FIRST_INTERVAL_MS = 100;
/** ZooKeeper's own client gives a probe one second. */
const PROBE_TIMEOUT_MS = 1_000;

export class ReadWriteSeeker {
  readonly #options: ReadWriteSeekerOptions;
  #timer: NodeJS.Timeout | undefined;
  #socket: net.Socket | undefined;
  #intervalMs = FIRST_INTERVAL_MS;
  #next = 0;
  #current: ServerAddress | undefined;
  #warnedWhitelist = false;

  constructor(options: ReadWriteSeekerOptions) {
    this.#options = options;
  }

  /** Starts probing every server but `current` (the read-only one the client is on). */
  start(current: ServerAddress | undefined): void {
    this.stop();
    this.#current = current;
    this.#intervalMs = FIRST_INTERVAL_MS;
    this.#schedule();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #schedule(): void {
    const delayMs = this.#intervalMs;
    this.#intervalMs = Math.min(2 * this.#intervalMs, this.#options.maxIntervalMs);
    this.#timer = setTimeout(() => this.#probeNext(), delayMs);
    this.#timer.unref();
  }

  #probeNext(): void {
    this.#timer = undefined;
    const others = this.#options.servers.filter(
      (s) => s.host !== this.#current?.host || s.port !== this.#current.port,
    );
    const server = others[this.#next++ % Math.max(1, others.length)];
    if (server === undefined) return;
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: server.host, port: server.port });
    this.#socket = socket;
    socket.unref();
    socket.setTimeout(PROBE_TIMEOUT_MS, () => socket.destroy());
    socket.on('connect', () => socket.end('isro'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a server that is down is the usual answer
    socket.on('close', () => {
      if (this.#socket !== socket) return; // stopped meanwhile
      this.#socket = undefined;
      const reply = Buffer.concat(chunks).toString('latin1').trim();
      if (reply === 'rw') {
        this.#options.onFound(server);
        return;
      }
      if (reply.includes('whitelist') && !this.#warnedWhitelist) {
        this.#warnedWhitelist = true;
        this.#options.logger.warn(
          'read-only: a server does not allow the isro four-letter word (4lw.commands.whitelist): the client cannot look for a read-write server',
          { server: `${server.host}:${server.port}` },
        );
      }
      this.#schedule();
    });
  }
}
