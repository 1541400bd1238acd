// The locks of a SetPartitioner's share: one InterProcessMutex per partition, acquired together
// and released together.
import pLimit from 'p-limit';
import { type FrameworkClient, joinPath } from '@zkrecipes/framework';
import { onAbort } from '@zkrecipes/framework/recipe-support';
import { InterProcessMutex, type MutexHold } from '@zkrecipes/locks';

/** Lock acquires in flight at most (each is one create and one read while uncontended). */
const ACQUIRE_CONCURRENCY = 16;

/** One held partition: its hold and the function that stops watching its `lost` signal. */
interface Held {
  readonly hold: MutexHold;
  readonly stopWatching: () => void;
}

/** The partitions a member holds, by name, and how it takes and gives them back. */
export class PartitionHolds {
  readonly #client: FrameworkClient;
  readonly #locksPath: string;
  readonly #mutexes = new Map<string, InterProcessMutex>();
  readonly #held = new Map<string, Held>();
  readonly #limit = pLimit(ACQUIRE_CONCURRENCY);

  constructor(client: FrameworkClient, locksPath: string) {
    this.#client = client;
    this.#locksPath = locksPath;
  }

  /** The hold of `partition`, if held. */
  holdOf(partition: string): MutexHold | undefined {
    return this.#held.get(partition)?.hold;
  }

  /** Whether every hold may still act (none has lost its validity). */
  allValid(): boolean {
    for (const { hold } of this.#held.values()) if (!hold.isValid()) return false;
    return true;
  }

  /**
   * Acquires the lock of every partition of `share`, waiting as long as it takes. `onLost` is
   * called once a hold's `lost` signal aborts. Resolves true once all are held; false when
   * `signal` aborted first (what was acquired stays held: call {@link release}). Rejects with the
   * first failure that was not the abort (likewise leaving the rest held).
   */
  async acquire(
    share: readonly string[],
    signal: AbortSignal,
    onLost: () => void,
  ): Promise<boolean> {
    const outcomes = await Promise.allSettled(
      share.map((partition) => this.#limit(() => this.#acquireOne(partition, signal, onLost))),
    );
    if (signal.aborted) return false;
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') throw outcome.reason;
    }
    return true;
  }

  /**
   * Releases every held partition (waiting for the server's answers while connected, as
   * `release()` of a lock does). Resolves the failures, none thrown.
   */
  async release(): Promise<unknown[]> {
    const held = [...this.#held.values()];
    this.#held.clear();
    const outcomes = await Promise.allSettled(
      held.map(({ hold, stopWatching }) => {
        stopWatching();
        return hold.release();
      }),
    );
    return outcomes.flatMap((outcome): unknown[] =>
      outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
    );
  }

  async #acquireOne(partition: string, signal: AbortSignal, onLost: () => void): Promise<void> {
    let mutex = this.#mutexes.get(partition);
    if (mutex === undefined) {
      mutex = new InterProcessMutex(this.#client, joinPath(this.#locksPath, partition));
      this.#mutexes.set(partition, mutex);
    }
    const hold = await mutex.acquireHold(undefined, { signal });
    const stopWatching = onAbort(hold.lost, onLost);
    this.#held.set(partition, { hold, stopWatching });
  }
}
