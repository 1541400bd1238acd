// One client connection through the FaultProxy: the client's socket, the upstream socket,
// and a queue per direction so delayed bytes keep their order and a stall can hold them.
// Both directions are read as ZooKeeper frames, so a pending loseReply can pick a request
// and hold back its reply however TCP cut the stream into chunks.
import net from 'node:net';
import { ZkFrameReader } from './zk-frame-reader.js';

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

/** What a connection asks of its proxy. */
export interface ConnectionHooks {
  /** The proxy's current fault. */
  readonly mode: () => FaultMode;
  /** The pending loseReply, if any: it reads the frames after the handshake. */
  readonly tap: () => FrameTap | undefined;
  /** Both sockets are gone. */
  readonly onClose: () => void;
}

/** Reads a connection's frames to pick a request and lose its reply (see lost-reply-trap.ts). */
export interface FrameTap {
  /** A request frame's body, already on its way to the server. */
  request(connection: ProxiedConnection, body: Buffer): void;
  /** A reply frame's body; true drops it and every byte after it on this connection. */
  reply(connection: ProxiedConnection, body: Buffer): boolean;
}

export class ProxiedConnection {
  readonly client: net.Socket;
  readonly upstream: net.Socket;
  #directions: Direction[];
  #down: Direction;
  #downFrames = new ZkFrameReader();
  #replyLost = false;
  #closed = false;

  constructor(client: net.Socket, target: { host: string; port: number }, hooks: ConnectionHooks) {
    this.client = client;
    this.upstream = net.connect({ host: target.host, port: target.port });
    this.client.setNoDelay(true);
    this.upstream.setNoDelay(true);
    const up = new Direction(client, this.upstream, hooks.mode);
    this.#down = new Direction(this.upstream, client, hooks.mode);
    this.#directions = [up, this.#down];
    // Requests go out as they came; their frames are only read, to pick the one to lose.
    const upFrames = new ZkFrameReader();
    client.on('data', (chunk: Buffer) => {
      up.push(chunk);
      for (const frame of upFrames.push(chunk)) {
        if (frame.index > 0 && frame.body !== undefined) hooks.tap()?.request(this, frame.body);
      }
    });
    // Replies go out a whole frame at a time, so one can be held back before any of it left.
    this.upstream.on('data', (chunk: Buffer) => {
      if (this.#replyLost) return;
      for (const frame of this.#downFrames.push(chunk)) {
        if (frame.index > 0 && frame.body !== undefined && hooks.tap()?.reply(this, frame.body)) {
          // The rest goes too: a later reply or watch event reaching the client would put
          // what happened after the write ahead of the client learning the write's fate.
          this.#replyLost = true;
          return;
        }
        this.#down.push(frame.bytes);
      }
    });
    for (const direction of this.#directions) {
      // A half-close is forwarded in order, behind any bytes still queued.
      direction.from.on('end', () => this.#end(direction));
      direction.from.on('error', () => this.destroy());
      direction.from.on('close', () => {
        // The other side learns of it once the bytes queued ahead of the close are written.
        this.#end(direction);
        this.#closeIfBothGone(hooks.onClose);
      });
    }
    // Nothing crosses a partition until it heals, not even the first bytes.
    if (hooks.mode().type === 'BLACKHOLE') this.stall();
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

  #end(direction: Direction): void {
    if (direction !== this.#down) {
      direction.push('END');
      return;
    }
    if (this.#replyLost) return;
    // A frame cut short by the close is forwarded as it is, as a plain proxy would.
    const rest = this.#downFrames.rest();
    if (rest.length > 0) this.#down.push(rest);
    this.#down.push('END');
  }

  #closeIfBothGone(onClose: () => void): void {
    if (this.#closed || !this.client.destroyed || !this.upstream.destroyed) return;
    this.#closed = true;
    for (const direction of this.#directions) direction.clear();
    onClose();
  }
}
