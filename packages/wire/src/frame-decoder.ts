// TCP delivers a byte stream; ZooKeeper speaks in frames of an int32 length and a payload.
// This reassembles whole payloads from whatever chunks arrive.

/** jute.maxbuffer defaults to ~1 MB; anything far beyond it is a corrupt stream. */
import { Buffer } from 'node:buffer';

const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Splits a ZooKeeper byte stream into frame payloads. */
export class FrameDecoder {
  #pending: Buffer = Buffer.alloc(0);

  /** Adds a chunk and returns every payload it completes (length prefix removed). */
  push(chunk: Buffer): Buffer[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: Buffer[] = [];
    while (this.#pending.length >= 4) {
      const length = this.#pending.readInt32BE(0);
      if (length < 0 || length > MAX_FRAME_BYTES) {
        throw new Error(`invalid frame length ${length}: not a ZooKeeper stream`);
      }
      if (this.#pending.length < 4 + length) break;
      frames.push(this.#pending.subarray(4, 4 + length));
      this.#pending = this.#pending.subarray(4 + length);
    }
    return frames;
  }
}
