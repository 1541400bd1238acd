/** What an atomic operation cost (Curator's `AtomicStats`): for tuning and debugging. */
export interface AtomicStats {
  /** Optimistic (compare-and-set) attempts made. */
  readonly optimisticTries: number;
  /** Attempts made while holding the promoted mutex (0 without promotion). */
  readonly promotedLockTries: number;
  /** Milliseconds spent in the optimistic attempts, sleeps included. */
  readonly optimisticTimeMs: number;
  /** Milliseconds spent acquiring the mutex and trying under it (0 without promotion). */
  readonly promotedTimeMs: number;
}

/**
 * The outcome of an atomic operation (Curator's `AtomicValue`). Always check
 * {@link succeeded}: only `get()` always succeeds; every other operation may give up (the
 * retry policy ran out, the mutex was not had in time) and then changed nothing.
 */
export interface AtomicValue<T> {
  /** True when the operation took effect; false when it changed nothing. */
  readonly succeeded: boolean;
  /** The value read before the (last) attempt. */
  readonly preValue: T;
  /** The value written; on failure the "nothing" value (undefined bytes, `0n` for a long). */
  readonly postValue: T;
  /** Attempts and time spent. */
  readonly stats: AtomicStats;
}

/** @internal The mutable result an operation fills in. */
export class MutableAtomicValue<T> {
  succeeded = false;
  preValue: T;
  postValue: T;
  readonly stats = {
    optimisticTries: 0,
    promotedLockTries: 0,
    optimisticTimeMs: 0,
    promotedTimeMs: 0,
  };

  constructor(nothing: T) {
    this.preValue = nothing;
    this.postValue = nothing;
  }

  /** A frozen copy with its values mapped. */
  freeze<R>(map: (value: T) => R): AtomicValue<R> {
    return Object.freeze({
      succeeded: this.succeeded,
      preValue: map(this.preValue),
      postValue: map(this.postValue),
      stats: Object.freeze({ ...this.stats }),
    });
  }
}
