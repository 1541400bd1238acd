// Jute, ZooKeeper's serialization: big-endian ints and longs, length-prefixed buffers and
// strings (-1 for null), vectors as a count followed by the items. The writer grows one
// buffer instead of collecting chunks: a create on a lock's hot path is encoded with one or
// two allocations, as the hand-written encoders it replaces were.
import { Buffer } from 'node:buffer';
import { writeInt32 } from './big-endian.js';

/** Four bytes kept free at the start so that `frame()` can add the length without a copy. */
const LENGTH_PREFIX_BYTES = 4;

/** Builds one request payload; `frame()` adds the int32 length prefix ZooKeeper expects. */
export class JuteWriter {
  #buffer: Buffer;
  #offset = LENGTH_PREFIX_BYTES;

  /** `sizeHint`: the payload bytes expected; the buffer grows past it when needed. */
  constructor(sizeHint = 60) {
    this.#buffer = Buffer.allocUnsafe(LENGTH_PREFIX_BYTES + Math.max(sizeHint, 0));
  }

  /** The payload bytes written so far. */
  get length(): number {
    return this.#offset - LENGTH_PREFIX_BYTES;
  }

  /** A 32-bit signed int, big-endian. */
  int(value: number): this {
    // Checked as Buffer's writeInt32BE checked it: bytes of a value that is not an int32 would
    // be a different number on the server.
    if ((value | 0) !== value) throw new RangeError(`jute int out of range: ${value}`);
    this.#ensure(4);
    this.#offset = writeInt32(this.#buffer, this.#offset, value);
    return this;
  }

  /** A 64-bit signed long, big-endian (a number is taken as an integer). */
  long(value: bigint | number): this {
    this.#ensure(8);
    this.#offset = this.#buffer.writeBigInt64BE(BigInt.asIntN(64, BigInt(value)), this.#offset);
    return this;
  }

  /** One byte, 1 or 0. */
  bool(value: boolean): this {
    this.#ensure(1);
    this.#offset = this.#buffer.writeUInt8(value ? 1 : 0, this.#offset);
    return this;
  }

  /** A length-prefixed buffer; `undefined` is jute's null (length -1). */
  buffer(value: Uint8Array | undefined): this {
    if (value === undefined) return this.int(-1);
    this.int(value.length);
    return this.raw(value);
  }

  /** A length-prefixed UTF-8 string; `undefined` is jute's null (length -1). */
  string(value: string | undefined): this {
    if (value === undefined) return this.int(-1);
    const bytes = Buffer.byteLength(value, 'utf8');
    this.int(bytes);
    this.#ensure(bytes);
    this.#offset += this.#buffer.write(value, this.#offset, bytes, 'utf8');
    return this;
  }

  /** Bytes as they are, with no length: a record encoded elsewhere, or a request body. */
  raw(value: Uint8Array): this {
    this.#ensure(value.length);
    this.#buffer.set(value, this.#offset);
    this.#offset += value.length;
    return this;
  }

  /** Appends everything another writer holds (a request body behind its header). */
  append(other: JuteWriter): this {
    return this.raw(other.toBuffer());
  }

  /** The payload without the length prefix (a view: later writes do not change it). */
  toBuffer(): Buffer {
    return this.#buffer.subarray(LENGTH_PREFIX_BYTES, this.#offset);
  }

  /** The payload with its int32 length prefix, ready for the socket. */
  frame(): Buffer {
    writeInt32(this.#buffer, 0, this.length);
    return this.#buffer.subarray(0, this.#offset);
  }

  #ensure(bytes: number): void {
    if (this.#offset + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#offset + bytes));
    this.#buffer.copy(grown, 0, 0, this.#offset);
    this.#buffer = grown;
  }
}
