import pLimit from 'p-limit';
import {
  type FrameworkClient,
  isNoNode,
  joinPath,
  type IdempotentOptions,
  type IterableObservable,
  type SignalOptions,
  type Stat,
  type VersionOptions,
} from '@zkrecipes/framework';
import {
  checkClient,
  checkRecipeOptions,
  checkSignalOptions,
} from '@zkrecipes/framework/recipe-support';
import { ModelCodec } from './model-codec.js';
import { checkModelSpec, type CheckedSpec, type ModelSpec } from './model-spec.js';
import { watchModel, type ModelWatchEvent } from './model-watch.js';
import type { InferInput, InferOutput, StandardSchemaV1 } from './standard-schema.js';
import type { PathParams, ZPath } from './zpath.js';

/** Reads in flight at most in {@link ModeledFramework.childrenAsModels}. */
const READ_CONCURRENCY = 16;

/** A model node as read (Curator's `ZNode`): where, its value, its Stat. */
export interface ModelNode<T> {
  /** The node's path (namespace-relative). */
  readonly path: string;
  /** The value, as the schema's output. */
  readonly value: T;
  /** The node's Stat as of the read: `stat.version` for a versioned update or delete. */
  readonly stat: Stat;
}

/** Options of {@link ModeledFramework.set}. */
export interface ModelSetOptions extends SignalOptions, IdempotentOptions {}

/** Options of {@link ModeledFramework.update}: `version` -1 (the default) matches any. */
export interface ModelUpdateOptions extends VersionOptions, IdempotentOptions {}

/** Options of {@link ModeledFramework.delete}: `version` -1 (the default) matches any. */
export type ModelDeleteOptions = VersionOptions;

/**
 * Typed values on ZooKeeper nodes (Curator's `ModeledFramework`): a path template, a Standard
 * Schema and a serializer. Every value is checked by the schema before it is written (a
 * refused value sends nothing: ModelValidationError) and after it is read (data the model
 * cannot read: ModelDataError). The bytes are Curator's JacksonModelSerializer's by default,
 * so a Java service using Curator's modeled framework reads and writes the same nodes.
 *
 * ```ts
 * const users = new ModeledFramework(client, { path: '/app/users/{id}', schema: User });
 * await users.set({ id: '42' }, { name: 'Ada' });
 * const { value, stat } = await users.read({ id: '42' });
 * await users.update({ id: '42' }, { ...value, name: 'Ada L.' }, { version: stat.version });
 * ```
 */
export class ModeledFramework<S extends StandardSchemaV1, P extends string = string> {
  readonly #client: FrameworkClient;
  readonly #spec: CheckedSpec<S, P>;
  readonly #codec: ModelCodec<S>;

  constructor(client: FrameworkClient, spec: ModelSpec<S, P>) {
    checkClient('ModeledFramework', client);
    this.#client = client;
    this.#spec = checkModelSpec('ModeledFramework', spec);
    this.#codec = new ModelCodec(this.#spec.schema, this.#spec.serializer);
  }

  /** The client the model reads and writes with. */
  get client(): FrameworkClient {
    return this.#client;
  }

  /** The path template. */
  get path(): ZPath<P> {
    return this.#spec.zpath;
  }

  /** The schema and serializer, as one codec (the cached model shares it). */
  get codec(): ModelCodec<S> {
    return this.#codec;
  }

  /** The node path for `params`; InvalidArgumentError for a missing, unknown or bad parameter. */
  resolve(params: PathParams<P>): string {
    return this.#spec.zpath.resolve(params);
  }

  /**
   * Writes `value`: creates the node (and missing parents as CONTAINERs), or sets its data when
   * it exists (Curator's `set`, with its default `createParentsAsContainers` and
   * `setDataIfExists`). Resolves the node's Stat after the write.
   */
  async set(
    params: PathParams<P>,
    value: InferInput<S>,
    options: ModelSetOptions = {},
  ): Promise<Stat> {
    checkRecipeOptions('set', options, ['signal', 'idempotent']);
    const path = this.resolve(params);
    const data = await this.#codec.encode(value, path);
    const spec = this.#spec;
    const created = await this.#client.create(path, {
      data,
      mode: spec.createMode,
      ttlMs: spec.ttlMs,
      acl: spec.acl,
      createParents: spec.createParents,
      orSetData: true,
      stat: true,
      signal: options.signal,
      idempotent: options.idempotent,
    });
    return created.stat;
  }

  /** Reads the node: its value (checked by the schema), path and Stat. NoNodeError when absent. */
  async read(
    params: PathParams<P>,
    options: SignalOptions = {},
  ): Promise<ModelNode<InferOutput<S>>> {
    const signal = checkSignalOptions(options);
    return this.#readPath(this.resolve(params), signal);
  }

  /**
   * Sets the node's data to `value` (Curator's `update`): with `version`, only if the node is at
   * that version, else BadVersionError and nothing written. NoNodeError when absent.
   */
  async update(
    params: PathParams<P>,
    value: InferInput<S>,
    options: ModelUpdateOptions = {},
  ): Promise<Stat> {
    checkRecipeOptions('update', options, ['version', 'signal', 'idempotent']);
    const path = this.resolve(params);
    const data = await this.#codec.encode(value, path);
    return this.#client.setData(path, data, options);
  }

  /**
   * Deletes the node (Curator's `delete`, guaranteed unless the spec says otherwise): with
   * `version`, only at that version (else BadVersionError). NoNodeError when absent.
   */
  async delete(params: PathParams<P>, options: ModelDeleteOptions = {}): Promise<void> {
    checkRecipeOptions('delete', options, ['version', 'signal']);
    const path = this.resolve(params);
    await this.#client.delete(path, {
      version: options.version,
      signal: options.signal,
      guaranteed: this.#spec.guaranteedDelete,
    });
  }

  /** The node's Stat, or null when it does not exist (Curator's `checkExists`). */
  async exists(params: PathParams<P>, options: SignalOptions = {}): Promise<Stat | null> {
    const signal = checkSignalOptions(options);
    return this.#client.exists(this.resolve(params), { signal });
  }

  /** The names of the node's children, sorted (Curator's `children`). NoNodeError when absent. */
  async children(params: PathParams<P>, options: SignalOptions = {}): Promise<string[]> {
    const signal = checkSignalOptions(options);
    const names = await this.#client.getChildren(this.resolve(params), { signal });
    return names.sort();
  }

  /**
   * The node's children read as this model, sorted by name (Curator's `childrenAsZNodes`): for
   * a model whose nodes are the children of one parent (`/app/users` holding users). A child
   * deleted between the listing and its read is left out; one the model cannot read rejects
   * the call with ModelDataError. At most 16 reads at a time.
   */
  async childrenAsModels(
    params: PathParams<P>,
    options: SignalOptions = {},
  ): Promise<ModelNode<InferOutput<S>>[]> {
    const signal = checkSignalOptions(options);
    const parent = this.resolve(params);
    const names = (await this.#client.getChildren(parent, { signal })).sort();
    const limit = pLimit(READ_CONCURRENCY);
    const nodes = await Promise.all(
      names.map((name) =>
        limit(async () => {
          try {
            return await this.#readPath(joinPath(parent, name), signal);
          } catch (error) {
            if (isNoNode(error)) return undefined;
            throw error;
          }
        }),
      ),
    );
    return nodes.filter((node) => node !== undefined);
  }

  /**
   * The node over time: its value now, then after each change (created, set, deleted), across
   * reconnects and new sessions, as `{ type: 'VALUE' | 'ABSENT' | 'INVALID' }` events. The
   * watch starts with the first subscriber (or `for await`) and stops when it leaves;
   * aborting `signal` ends the stream. Eventually consistent: two quick changes may show as
   * one.
   */
  watch(
    params: PathParams<P>,
    options: SignalOptions = {},
  ): IterableObservable<ModelWatchEvent<InferOutput<S>>> {
    const signal = checkSignalOptions(options);
    return watchModel(this.#client, this.resolve(params), this.#codec, signal);
  }

  async #readPath(
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<ModelNode<InferOutput<S>>> {
    const { data, stat } = await this.#client.getData(path, { signal });
    return { path, value: await this.#codec.decode(data, path), stat };
  }
}
