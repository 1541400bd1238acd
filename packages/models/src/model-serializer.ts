import { readJson, writeJson } from '@zkrecipes/framework/recipe-support';

/**
 * Turns a model's values into node data and back (Curator's `ModelSerializer`). `serialize`
 * gets a value the schema accepted and may throw an InvalidArgumentError for one it cannot
 * write; `deserialize` gets a node's bytes and throws for bytes it cannot decode (the model
 * then rejects with a ModelDataError). The schema checks what `deserialize` returns.
 */
export interface ModelSerializer {
  /** The node data for `value`. */
  serialize(value: unknown): Uint8Array;
  /** The value in `data`; throws when `data` is not in this serializer's format. */
  deserialize(data: Uint8Array): unknown;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * JSON as Curator's `JacksonModelSerializer` writes it: `ObjectMapper.writeValueAsBytes`, UTF-8,
 * no whitespace, keys in the object's order (a Java class's field order, a Map's insertion
 * order), Jackson's string escapes and number forms (`1.5`, `1.0E21`; integers beyond 2^53 as
 * bigint). Reading takes any JSON Jackson reads; integers beyond 2^53 come back as bigint.
 * Empty data is not JSON (Jackson fails on it too). The default serializer of every model.
 */
export const JacksonModelSerializer: ModelSerializer = {
  serialize(value: unknown): Uint8Array {
    // writeJson refuses what is not JSON (undefined, functions, class instances, cycles).
    return Buffer.from(writeJson(value as Parameters<typeof writeJson>[0], 'the model'), 'utf8');
  },
  deserialize(data: Uint8Array): unknown {
    return readJson(utf8.decode(data));
  },
};
