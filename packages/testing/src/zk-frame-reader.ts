// TCP hands the proxy chunks; ZooKeeper speaks in frames (an int32 length, then the body). A
// fault that acts on one reply has to know where each frame starts and ends, however the
// frames were split across or coalesced into chunks. This reassembles them, keeping each
// frame's bytes as they came so the proxy forwards exactly what it read.
import { Buffer } from 'node:buffer';

/** Far beyond jute.maxbuffer (~1 MB by default): a length this big is not ZooKeeper framing. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** One piece of the stream, in order. */
export interface ZkFrame {
  /** The bytes to forward, length prefix included (or a chunk as it came, when unframed). */
  readonly bytes: Buffer;
  /** The body after the length prefix; undefined once the stream turned out not to be framed. */
  readonly body: Buffer | undefined;
  /** 0 for the connection's first frame (the handshake: ConnectRequest or ConnectResponse). */
  readonly index: number;
}

/**
 * Splits one direction of a connection into whole frames. A length that cannot be ZooKeeper's
 * (a four-letter word such as `ruok` reads as 1.9 GB) switches the reader to pass-through for
 * the rest of the connection, so non-ZooKeeper traffic still crosses the proxy unchanged.
 */
export class ZkFrameReader {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #count = 0;
  #unframed = false;

  /** Whether the stream is pass-through because it is not ZooKeeper framing. */
  get unframed(): boolean {
    return this.#unframed;
  }

  /** Adds a chunk; returns every frame it completes, in order (maybe none). */
  push(chunk: Buffer): ZkFrame[] {
    if (this.#unframed) return [{ bytes: chunk, body: undefined, index: this.#count++ }];
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    const frames: ZkFrame[] = [];
    while (this.#buffered >= 4) {
      const length = this.#head(4).readInt32BE(0);
      if (length < 0 || length > MAX_FRAME_BYTES) {
        this.#unframed = true;
        frames.push({ bytes: this.rest(), body: undefined, index: this.#count++ });
        break;
      }
      if (this.#buffered < 4 + length) break;
      const bytes = this.#take(4 + length);
      frames.push({ bytes, body: bytes.subarray(4), index: this.#count++ });
    }
    return frames;
  }

  /** Takes the bytes of a frame not complete yet (e.g. to forward them before an END). */
  rest(): Buffer {
    const rest = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#buffered = 0;
    return rest;
  }

  /** The first `length` buffered bytes as one buffer, without consuming them. */
  #head(length: number): Buffer {
    const first = this.#chunks[0]!;
    if (first.length >= length) return first;
    // Only the head is joined: copying the whole backlog on every chunk of a big frame would
    // make its arrival quadratic.
    return Buffer.concat(this.#chunks, Math.min(this.#buffered, length));
  }

  /** Removes and returns the first `length` buffered bytes (length <= buffered). */
  #take(length: number): Buffer {
    const parts: Buffer[] = [];
    let needed = length;
    while (needed > 0) {
      const chunk = this.#chunks[0]!;
      if (chunk.length <= needed) {
        parts.push(chunk);
        this.#chunks.shift();
        needed -= chunk.length;
      } else {
        parts.push(chunk.subarray(0, needed));
        this.#chunks[0] = chunk.subarray(needed);
        needed = 0;
      }
    }
    this.#buffered -= length;
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
  }
}
