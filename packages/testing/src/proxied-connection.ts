// One client connection through the FaultProxy: the client's socket, the upstream socket,
// and a queue per direction so delayed bytes keep their order and a stall can hold them.
import net from 'node:net';

/** How a FaultProxy treats traffic right now. */
export type FaultMode =
  | {
      /** Plain pass-through. */
      type: 'PASS';
    }
  | {
      /** A partition: nothing crosses, bytes are held until the mode changes. */
      type: 'BLACKHOLE';
    }
  | {
      /** Every connection is reset. */
      type: 'DROP';
    }
  | {
      /** Every chunk is forwarded later, per direction, order kept. */
      type: 'DELAY';
      /** The added latency per direction, in milliseconds. */
      delayMs: number;
    };

interface Queued {
  chunk: Buffer | 'END';
  releaseAt: number;
}

/**
 * Bytes flowing one way; `write` happens in arrival order, no earlier than `releaseAt`.
 * Writes ignore backpressure: test traffic is small. A blackhole does not queue here
 * either; it pauses the sockets, so the partition shows up in TCP's own buffers.
 */
class Direction {
  #queue: Queued[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly from: net.Socket,
    readonly to: net.Socket,
    readonly mode: () => FaultMode,
  ) {}

  push(chunk: Buffer | 'END'): void {
    const mode = this.mode();
    const delayMs = mode.type === 'DELAY' ? mode.delayMs : 0;
    this.#queue.push({ chunk, releaseAt: Date.now() + delayMs });
    this.flush();
  }

  /** Writes whatever is due; stalls entirely while the proxy is blackholed. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.mode().type === 'BLACKHOLE') return;
    const now = Date.now();
    while (this.#queue.length > 0) {
      const head = this.#queue[0];
      if (head === undefined) break;
      if (head.releaseAt > now) {
        this.#timer = setTimeout(() => this.flush(), head.releaseAt - now);
        return;
      }
      this.#queue.shift();
      if (this.to.destroyed) continue;
      if (head.chunk === 'END') this.to.end();
      else this.to.write(head.chunk);
    }
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#queue = [];
  }
}

export class ProxiedConnection {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  #directions: Direction[];
  #closed = false;

  constructor(
    client: net.Socket,
    target: { host: string; port: number },
    mode: () => FaultMode,
    onClose: () => void,
  ) {
    this.client = client;
    this.upstream = net.connect({ host: target.host, port: target.port });
    this.client.setNoDelay(true);
    this.upstream.setNoDelay(true);
    const up = new Direction(client, this.upstream, mode);
    const down = new Direction(this.upstream, client, mode);
    this.#directions = [up, down];
    for (const direction of this.#directions) {
      direction.from.on('data', (chunk: Buffer) => direction.push(chunk));
      // A half-close is forwarded in order, behind any bytes still queued.
      direction.from.on('end', () => direction.push('END'));
      direction.from.on('error', () => this.destroy());
      direction.from.on('close', () => {
        // The other side learns of it once the bytes queued ahead of the close are written.
        direction.push('END');
        this.#closeIfBothGone(onClose);
      });
    }
    // Nothing crosses a partition until it heals, not even the first bytes.
    if (mode().type === 'BLACKHOLE') this.stall();
  }

  /** Stops reading both sockets: the kernel buffers fill, as behind a real partition. */
  stall(): void {
    this.client.pause();
    this.upstream.pause();
  }

  /** Resumes reading and releases held bytes, in order. */
  heal(): void {
    for (const direction of this.#directions) direction.flush();
    this.client.resume();
    this.upstream.resume();
  }

  /** TCP reset on both sides: the client and the server each see ECONNRESET. */
  reset(): void {
    for (const direction of this.#directions) direction.clear();
    if (!this.client.destroyed) this.client.resetAndDestroy();
    if (!this.upstream.destroyed) this.upstream.resetAndDestroy();
  }

  destroy(): void {
    for (const direction of this.#directions) direction.clear();
    this.client.destroy();
    this.upstream.destroy();
  }

  #closeIfBothGone(onClose: () => void): void {
    if (this.#closed || !this.client.destroyed || !this.upstream.destroyed) return;
    this.#closed = true;
    for (const direction of this.#directions) direction.clear();
    onClose();
  }
}
