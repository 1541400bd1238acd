// The reading half of jute (see jute-writer.ts). Every read checks the bytes are there, so a
// reply cut short or of an unexpected shape fails with a message instead of reading garbage.
import { Buffer } from 'node:buffer';
import { readInt32, readInt64 } from './big-endian.js';

/** Reads one reply payload (without its length prefix). Throws on a short buffer. */
export class JuteReader {
  readonly #buffer: Buffer;
  #offset: number;

  /** Reads `buffer` from `offset` (0 by default). */
  constructor(buffer: Buffer, offset = 0) {
    this.#buffer = buffer;
    this.#offset = offset;
  }

  /** Where the next read starts. */
  get offset(): number {
    return this.#offset;
  }

  /** Bytes not read yet. */
  get remaining(): number {
    return this.#buffer.length - this.#offset;
  }

  /** A 32-bit signed int, big-endian. */
  int(): number {
    this.#need(4);
    const value = readInt32(this.#buffer, this.#offset);
    this.#offset += 4;
    return value;
  }

  /** A 64-bit signed long, big-endian. */
  long(): bigint {
    this.#need(8);
    const value = readInt64(this.#buffer, this.#offset);
    this.#offset += 8;
    return value;
  }

  /** One byte; anything but 0 is true. */
  bool(): boolean {
    this.#need(1);
    return this.#buffer[this.#offset++] !== 0;
  }

  /** A length-prefixed buffer (a copy); `undefined` for jute's null (-1). */
  buffer(): Buffer | undefined {
    const length = this.int();
    if (length < 0) return undefined;
    return this.bytes(length);
  }

  /** A length-prefixed UTF-8 string; `undefined` for jute's null (-1). */
  string(): string | undefined {
    const length = this.int();
    if (length < 0) return undefined;
    this.#need(length);
    const value = this.#buffer.toString('utf8', this.#offset, this.#offset + length);
    this.#offset += length;
    return value;
  }

  /** A `vector<ustring>` (getChildren's reply); jute's null vector reads as empty. */
  strings(): string[] {
    const count = this.int();
    const values: string[] = [];
    for (let i = 0; i < count; i++) values.push(this.string() ?? '');
    return values;
  }

  /** The next `length` bytes, copied: the result outlives the socket's buffer. */
  bytes(length: number): Buffer {
    this.#need(length);
    const value = Buffer.from(this.#buffer.subarray(this.#offset, this.#offset + length));
    this.#offset += length;
    return value;
  }

  #need(bytes: number): void {
    if (this.#buffer.length - this.#offset < bytes) {
      throw new Error(
        `jute: cut short, need ${bytes} bytes at offset ${this.#offset}, have ${this.remaining}`,
      );
    }
  }
}
