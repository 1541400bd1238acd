import { InvalidArgumentError } from '@zkrecipes/framework';

/**
 * Turns queue items into bytes and back (Curator's `QueueSerializer`). The bytes of each item go
 * into Curator's envelope unchanged, so a Java consumer with a matching serializer reads them.
 * `serialize` may throw for a value it cannot take; put() then rejects before sending anything.
 */
export interface QueueSerializer<T> {
  /** Turns an item into the bytes stored in the envelope. */
  serialize(item: T): Uint8Array;
  /** Turns the bytes of one envelope entry back into an item; may throw on bad input. */
  deserialize(bytes: Buffer): T;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The default: items are bytes and are delivered as Buffers (any Uint8Array is accepted when
 * putting). A value of another type fails with a message that points at the other serializers.
 */
export const bytesSerializer: QueueSerializer<Buffer> = Object.freeze({
  serialize(item: Buffer): Uint8Array {
    if (!(item instanceof Uint8Array)) {
      throw new InvalidArgumentError(
        `queue item must be a Buffer or Uint8Array, got ${describe(item)}: this queue has no ` +
          `serializer (pass { serializer: stringSerializer() } or jsonSerializer() to queue other values)`,
      );
    }
    return item;
  },
  deserialize(bytes: Buffer): Buffer {
    return bytes;
  },
});

/** Strings as UTF-8 (or another Buffer encoding); Java's `new String(bytes, UTF_8)` reads them. */
export function stringSerializer(encoding: BufferEncoding = 'utf8'): QueueSerializer<string> {
  return {
    serialize(item: string): Uint8Array {
      if (typeof item !== 'string') {
        throw new InvalidArgumentError(
          `queue item must be a string for stringSerializer, got ${describe(item)}`,
        );
      }
      return Buffer.from(item, encoding);
    },
    deserialize: (bytes: Buffer): string => bytes.toString(encoding),
  };
}

/**
 * Any JSON value, as UTF-8 JSON text. `undefined`, functions and symbols have no JSON form and
 * are refused (JSON.stringify would silently drop them).
 */
export function jsonSerializer<T>(): QueueSerializer<T> {
  return {
    serialize(item: T): Uint8Array {
      let text: string | undefined;
      try {
        text = JSON.stringify(item);
      } catch (error) {
        // A cycle or a BigInt: JSON.stringify throws a TypeError; say what it was about.
        throw new InvalidArgumentError(
          `queue item has no JSON form (${(error as Error).message}); jsonSerializer takes JSON values`,
          { cause: error },
        );
      }
      if (text === undefined) {
        throw new InvalidArgumentError(
          `queue item has no JSON form (got ${describe(item)}); jsonSerializer takes JSON values`,
        );
      }
      return Buffer.from(text, 'utf8');
    },
    deserialize: (bytes: Buffer): T => JSON.parse(bytes.toString('utf8')) as T,
  };
}
