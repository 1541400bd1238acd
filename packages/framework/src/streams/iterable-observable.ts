// Every stream the framework and the recipes expose is an rxjs Observable that can also be read
// with `for await`: rxjs 7 Observables are not async-iterable, and converting each one by hand
// (with a buffer, an end, an error and an unsubscribe on `break`) is done here once.
import type { Observable, Subscription } from 'rxjs';

/**
 * An rxjs Observable that is also an `AsyncIterable`:
 *
 * ```ts
 * for await (const state of client.connectionStates) {
 *   if (state === 'LOST') break; // `break` (or a throw) unsubscribes
 * }
 * ```
 *
 * Each `for await` (each call of `[Symbol.asyncIterator]()`) is its own subscription, made at
 * once, so a stream that replays its current value (connection states, leadership, a cache's
 * data) gives that value first. Values that arrive while the loop body runs are buffered and
 * come out in order, none dropped: a loop that cannot keep up with a busy stream makes the
 * buffer grow (pipe the stream through an rxjs operator such as `auditTime` first if only the
 * latest value matters). The loop ends when the stream completes (every recipe's streams
 * complete on `close()`, the client's on its `close()`), and throws the stream's error, after
 * the values buffered before it, if the stream fails.
 */
export interface IterableObservable<T> extends Observable<T>, AsyncIterable<T> {
  /** Subscribes now; see {@link IterableObservable} for buffering, end and errors. */
  [Symbol.asyncIterator](): AsyncIterator<T, undefined>;
}

/**
 * Gives `source` a `[Symbol.asyncIterator]` (on the instance itself, so subscribing costs
 * nothing more) and returns it as an {@link IterableObservable}. For recipe authors: every
 * stream a recipe exposes goes through this once, where it is created.
 */
export function iterableObservable<T>(source: Observable<T>): IterableObservable<T> {
  if (!(Symbol.asyncIterator in source)) {
    Object.defineProperty(source, Symbol.asyncIterator, {
      value: (): AsyncIterator<T, undefined> => new ObservableIterator(source),
      configurable: true,
      writable: true,
    });
  }
  return source as IterableObservable<T>;
}

type Waiter<T> = {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: unknown) => void;
};

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** One subscription read as an async iterator. */
class ObservableIterator<T> implements AsyncIterator<T, undefined> {
  readonly #buffer: T[] = [];
  readonly #waiters: Waiter<T>[] = [];
  readonly #subscription: Subscription;
  /** Set once the stream has ended: `{ error }` until that error has been thrown once. */
  #end: { error: unknown } | 'done' | undefined;

  constructor(source: Observable<T>) {
    this.#subscription = source.subscribe({
      next: (value) => {
        const waiter = this.#waiters.shift();
        if (waiter) waiter.resolve({ done: false, value });
        else this.#buffer.push(value);
      },
      error: (error: unknown) => {
        this.#end = { error };
        const waiter = this.#waiters.shift();
        if (waiter) {
          this.#end = 'done';
          waiter.reject(error);
        }
        this.#finishWaiters();
      },
      complete: () => {
        this.#end = 'done';
        this.#finishWaiters();
      },
    });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#buffer.length > 0) {
      return Promise.resolve({ done: false, value: this.#buffer.shift() as T });
    }
    const end = this.#end;
    if (end === 'done') return Promise.resolve(DONE);
    if (end !== undefined) {
      this.#end = 'done';
      // The stream's own error, as is (rxjs does not require an Error either).
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(end.error);
    }
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Called by `break`, `return` or a throw in the loop: unsubscribes and drops the buffer. */
  return(): Promise<IteratorResult<T, undefined>> {
    this.#subscription.unsubscribe();
    this.#end = 'done';
    this.#buffer.length = 0;
    this.#finishWaiters();
    return Promise.resolve(DONE);
  }

  #finishWaiters(): void {
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(DONE);
  }
}
