// Jute, ZooKeeper's serialization: big-endian ints and longs, length-prefixed buffers and
// strings (-1 for null), vectors as a count followed by the items. Only the handful of
// types the raw session needs are here.

/** Builds one request payload; `frame()` adds the int32 length prefix ZooKeeper expects. */
export class JuteWriter {
  #chunks: Buffer[] = [];

  int(value: number): this {
    const buffer = Buffer.alloc(4);
    buffer.writeInt32BE(value);
    this.#chunks.push(buffer);
    return this;
  }

  long(value: bigint): this {
    const buffer = Buffer.alloc(8);
    buffer.writeBigInt64BE(BigInt.asIntN(64, value));
    this.#chunks.push(buffer);
    return this;
  }

  bool(value: boolean): this {
    this.#chunks.push(Buffer.from([value ? 1 : 0]));
    return this;
  }

  buffer(value: Buffer | undefined): this {
    if (value === undefined) return this.int(-1);
    this.int(value.length);
    this.#chunks.push(value);
    return this;
  }

  string(value: string | undefined): this {
    return this.buffer(value === undefined ? undefined : Buffer.from(value, 'utf8'));
  }

  /** Appends everything another writer holds (a request body behind its header). */
  append(other: JuteWriter): this {
    this.#chunks.push(other.toBuffer());
    return this;
  }

  /** The payload without the length prefix. */
  toBuffer(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  /** The payload with its int32 length prefix, ready for the socket. */
  frame(): Buffer {
    const payload = this.toBuffer();
    const length = Buffer.alloc(4);
    length.writeInt32BE(payload.length);
    return Buffer.concat([length, payload]);
  }
}

/** Reads one reply payload (without its length prefix). Throws on a short buffer. */
export class JuteReader {
  #buffer: Buffer;
  #offset = 0;

  constructor(buffer: Buffer) {
    this.#buffer = buffer;
  }

  get remaining(): number {
    return this.#buffer.length - this.#offset;
  }

  int(): number {
    this.#need(4);
    const value = this.#buffer.readInt32BE(this.#offset);
    this.#offset += 4;
    return value;
  }

  long(): bigint {
    this.#need(8);
    const value = this.#buffer.readBigInt64BE(this.#offset);
    this.#offset += 8;
    return value;
  }

  bool(): boolean {
    this.#need(1);
    return this.#buffer[this.#offset++] !== 0;
  }

  /** A length-prefixed buffer; `undefined` for jute's null (-1). */
  buffer(): Buffer | undefined {
    const length = this.int();
    if (length < 0) return undefined;
    this.#need(length);
    const value = Buffer.from(this.#buffer.subarray(this.#offset, this.#offset + length));
    this.#offset += length;
    return value;
  }

  string(): string | undefined {
    return this.buffer()?.toString('utf8');
  }

  /** A vector of strings (getChildren's reply); null reads as empty. */
  strings(): string[] {
    const count = this.int();
    const values: string[] = [];
    for (let i = 0; i < count; i++) values.push(this.string() ?? '');
    return values;
  }

  #need(bytes: number): void {
    if (this.remaining < bytes) {
      throw new Error(
        `jute: need ${bytes} bytes at offset ${this.#offset}, have ${this.remaining}`,
      );
    }
  }
}
