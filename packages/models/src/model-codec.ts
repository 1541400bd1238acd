import { InvalidArgumentError, isZooKeeperError } from '@zkrecipes/framework';
import { ModelDataError } from './model-data-error.js';
import type { ModelSerializer } from './model-serializer.js';
import { ModelValidationError } from './model-validation-error.js';
import type { InferOutput, StandardSchemaV1 } from './standard-schema.js';

/** A model's values to bytes and back, through its schema and serializer. */
export class ModelCodec<S extends StandardSchemaV1> {
  readonly #schema: S;
  readonly #serializer: ModelSerializer;

  constructor(schema: S, serializer: ModelSerializer) {
    this.#schema = schema;
    this.#serializer = serializer;
  }

  /**
   * The bytes to write for `value` at `path`: the schema's output, serialized. Rejects with
   * ModelValidationError when the schema refuses it, InvalidArgumentError when the serializer
   * cannot write it; nothing has been sent then.
   */
  async encode(value: unknown, path: string): Promise<Uint8Array> {
    const result = await this.#schema['~standard'].validate(value);
    if (result.issues !== undefined) throw new ModelValidationError(path, result.issues);
    try {
      return this.#serializer.serialize(result.value);
    } catch (error) {
      if (isZooKeeperError(error)) throw error;
      throw new InvalidArgumentError(
        `the serializer cannot write the value: ${error instanceof Error ? error.message : String(error)}`,
        { path, cause: error },
      );
    }
  }

  /** The value in `data` read at `path`; rejects with ModelDataError when it cannot be read. */
  async decode(data: Uint8Array, path: string): Promise<InferOutput<S>> {
    let decoded: unknown;
    try {
      decoded = this.#serializer.deserialize(data);
    } catch (cause) {
      throw new ModelDataError(path, data, { cause });
    }
    const result = await this.#schema['~standard'].validate(decoded);
    if (result.issues !== undefined)
      throw new ModelDataError(path, data, { issues: result.issues });
    return result.value;
  }
}
