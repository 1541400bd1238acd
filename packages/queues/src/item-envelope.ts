// Curator's DistributedQueue node format (its ItemSerializer), byte for byte, so Java and Node
// producers and consumers share queues:
//
//   int32 0x00010001                    version, big-endian
//   ( byte 0x01, int32 length, bytes )* one entry per item (put: one; putMulti: several)
//   byte 0x02                           end
//
// Java's DataOutputStream writes big-endian ints, hence the BE calls below.

/** The version word every envelope starts with. */
export const ENVELOPE_VERSION = 0x00010001;
const ITEM_OPCODE = 0x01;
const END_OPCODE = 0x02;

/** Bytes an envelope adds around its items: the version word and the end byte. */
export const ENVELOPE_FRAME_BYTES = 5;
/** Bytes each item adds: its opcode and its length. */
export const ENVELOPE_ITEM_BYTES = 5;

/** A queue node whose data is not a valid envelope (Curator logs these as corrupted items). */
export class CorruptEnvelopeError extends Error {
  /** The error class name, for logs and `instanceof`-free checks. */
  override name = 'CorruptEnvelopeError';
  /** Always `'CORRUPT_ENVELOPE'`: a stable code to branch on across package copies. */
  readonly code = 'CORRUPT_ENVELOPE';
}

/** The size of the envelope holding items of these sizes. */
export function envelopeSize(itemSizes: readonly number[]): number {
  return itemSizes.reduce(
    (total, size) => total + ENVELOPE_ITEM_BYTES + size,
    ENVELOPE_FRAME_BYTES,
  );
}

/** Wraps serialized items in Curator's envelope. */
export function encodeEnvelope(items: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafe(envelopeSize(items.map((item) => item.byteLength)));
  let at = out.writeInt32BE(ENVELOPE_VERSION, 0);
  for (const item of items) {
    at = out.writeUInt8(ITEM_OPCODE, at);
    at = out.writeInt32BE(item.byteLength, at);
    at += Buffer.from(item.buffer, item.byteOffset, item.byteLength).copy(out, at);
  }
  out.writeUInt8(END_OPCODE, at);
  return out;
}

/**
 * The items inside an envelope, as views into `bytes` (no copies). Throws
 * CorruptEnvelopeError, naming what is wrong, for anything Curator would also refuse: a wrong
 * version, an unknown opcode, a negative length, or data that ends early.
 */
export function decodeEnvelope(bytes: Uint8Array): Buffer[] {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const need = (at: number, count: number, what: string): void => {
    if (at + count > data.length) {
      throw new CorruptEnvelopeError(
        `envelope ends early: ${what} needs ${count} bytes at offset ${at}, ${data.length} bytes in all`,
      );
    }
  };
  need(0, 4, 'the version');
  const version = data.readInt32BE(0);
  if (version !== ENVELOPE_VERSION) {
    throw new CorruptEnvelopeError(
      `wrong envelope version 0x${(version >>> 0).toString(16).padStart(8, '0')}; expected 0x00010001 (Curator's DistributedQueue format)`,
    );
  }
  const items: Buffer[] = [];
  let at = 4;
  for (;;) {
    need(at, 1, 'an opcode');
    const opcode = data.readUInt8(at);
    at += 1;
    if (opcode === END_OPCODE) return items;
    if (opcode !== ITEM_OPCODE) {
      throw new CorruptEnvelopeError(
        `unknown opcode ${opcode} at offset ${at - 1}; expected 1 or 2`,
      );
    }
    need(at, 4, 'an item length');
    const length = data.readInt32BE(at);
    at += 4;
    if (length < 0) throw new CorruptEnvelopeError(`negative item length ${length}`);
    need(at, length, `item ${items.length}`);
    items.push(data.subarray(at, at + length));
    at += length;
  }
}
