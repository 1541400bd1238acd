import { concatMap } from 'rxjs';
import {
  type FrameworkClient,
  InvalidArgumentError,
  type RecipeError,
  type RecipeState,
  type IterableObservable,
  iterableObservable,
} from '@zkrecipes/framework';
import { checkClient, checkListener, describeValue } from '@zkrecipes/framework/recipe-support';
import type { SharedCountReader } from '@zkrecipes/locks';
import type { CallOptions } from './call-options.js';
import { checkInt32, int32FromBytes, int32ToBytes } from './number-codecs.js';
import { SharedValue, type SharedValueStateListener } from './shared-value.js';
import { checkVersionedValue, type VersionedValue } from './versioned-value.js';

/** Curator's `SharedCountListener.countHasChanged`, given the current count. */
export type SharedCountListener = (count: number) => unknown;

/**
 * An integer every client of one path shares (Curator's `SharedCount`): a {@link SharedValue}
 * holding a Java int as 4 big-endian bytes, the bytes Curator writes. Counts are numbers from
 * -2^31 to 2^31 - 1; anything else is an InvalidArgumentError. It can size an
 * `InterProcessSemaphoreV2` (it is the `SharedCountReader` that semaphore takes).
 *
 * @example
 * const workers = new SharedCount(client, '/app/desired-workers', 4);
 * await workers.start();
 * for (;;) {
 *   const seen = workers.getVersionedValue();
 *   if (await workers.trySetCount(seen, seen.value + 1)) break; // a lost race re-read the node
 * }
 */
export class SharedCount implements SharedCountReader {
  readonly #value: SharedValue;
  #counts: IterableObservable<VersionedValue<number>> | undefined;
  readonly #path: string;

  /**
   * @param path the node holding the count
   * @param seedValue the count the node is created with if it does not exist yet
   */
  constructor(client: FrameworkClient, path: string, seedValue: number) {
    checkClient('SharedCount', client);
    const seed = checkInt32('seedValue', seedValue);
    this.#value = new SharedValue(client, path, int32ToBytes(seed), { component: 'SharedCount' });
    this.#path = path;
  }

  /** The node's path. */
  get path(): string {
    return this.#path;
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#value.state;
  }

  /**
   * The cached count with its zxid and version over time; replays the current one to each new
   * subscriber. A node value that is not a count (fewer than 4 bytes) is left out.
   */
  get counts(): IterableObservable<VersionedValue<number>> {
    this.#counts ??= iterableObservable(
      this.#value.values.pipe(
        concatMap((versioned) => {
          try {
            return [this.#toCount(versioned)];
          } catch {
            return [];
          }
        }),
      ),
    );
    return this.#counts;
  }

  /** Background failures: a listener that threw, a read that failed for good, a corrupted node. */
  get errors(): IterableObservable<RecipeError> {
    return this.#value.errors;
  }

  /** The cached count: the seed until the first read. Throws CorruptedValueError for a node of fewer than 4 bytes. */
  getCount(): number {
    return int32FromBytes(this.#path, this.#value.getValue());
  }

  /** The cached count with the zxid and version it was read or written with. */
  getVersionedValue(): VersionedValue<number> {
    return this.#toCount(this.#value.getVersionedValue());
  }

  /**
   * Adds a listener; returns the function that removes it. `countChanged` gets the count after
   * each read a watch or a reconnect caused (also after this client's own writes);
   * `stateChanged` gets every connection state change while started.
   */
  on(event: 'countChanged', listener: SharedCountListener): () => void;
  on(event: 'stateChanged', listener: SharedValueStateListener): () => void;
  on(event: 'countChanged' | 'stateChanged', listener: (value: never) => unknown): () => void {
    if (event === 'stateChanged') {
      return this.#value.on('stateChanged', listener as SharedValueStateListener);
    }
    if (event !== 'countChanged') {
      throw new InvalidArgumentError(
        `unknown event ${describeValue(event)}; use 'countChanged' or 'stateChanged'`,
      );
    }
    checkListener(listener);
    const call = listener as SharedCountListener;
    return this.#value.on('valueChanged', (bytes) => call(int32FromBytes(this.#path, bytes)));
  }

  /** Creates the node with the seed unless it exists, reads and watches it (Curator's `start()`). */
  start(options: CallOptions = {}): Promise<void> {
    return this.#value.start(options);
  }

  /** Overwrites the count whatever it is (Curator's `setCount`). */
  async setCount(newCount: number, options: CallOptions = {}): Promise<void> {
    return this.#value.setValue(int32ToBytes(checkInt32('newCount', newCount)), options);
  }

  /**
   * Compare-and-set (Curator's `trySetCount(previous, newCount)`): writes only if `previous`
   * (from {@link getVersionedValue}) is still the cached value and the node's version; false
   * otherwise, with the cache then holding the newer count. See `SharedValue.trySetValue`.
   */
  async trySetCount(
    previous: VersionedValue<number>,
    newCount: number,
    options: CallOptions = {},
  ): Promise<boolean> {
    const expected = checkVersionedValue(previous, (value) => checkInt32('previous.value', value));
    const bytes = int32ToBytes(checkInt32('newCount', newCount));
    return this.#value.trySetValue(
      { ...expected, value: int32ToBytes(expected.value) },
      bytes,
      options,
    );
  }

  /** Stops watching and removes the listeners; leaves the node. Twice is a no-op. */
  close(): Promise<void> {
    return this.#value.close();
  }

  /** Calls `close()`, so `await using` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #toCount(versioned: VersionedValue<Uint8Array>): VersionedValue<number> {
    const { zxid, version, value } = versioned;
    return { zxid, version, value: int32FromBytes(this.#path, value) };
  }
}
