// Leadership over time, as both recipes expose it: a BehaviorSubject (late subscribers get the
// current value, the getter reads it synchronously) and Curator-style isLeader/notLeader
// listeners. Listeners run asynchronously, each isolated: one that throws, rejects or blocks
// for a while cannot hold up the election or the other listeners.
import { BehaviorSubject, Subject } from 'rxjs';
import {
  InvalidArgumentError,
  type FrameworkClient,
  type Logger,
  type RecipeError,
  type IterableObservable,
  iterableObservable,
} from '@zkrecipes/framework';
import {
  checkListener,
  reportRecipeFailure,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import type { LeaderTelemetry } from './leader-telemetry.js';

/** The listener events of both recipes (Curator's `LeaderLatchListener` methods). */
export type LeadershipEvent = 'isLeader' | 'notLeader';

/** A listener for {@link LeadershipEvent}s; a returned promise's rejection is reported. */
export type LeadershipListener = () => unknown;

/** A failure with no caller to reject (the framework's RecipeError, shared by every recipe). */
export type LeaderError = RecipeError;

/** Internal: the leadership flag, its stream, its listeners and the recipe's error stream. */
export class LeadershipState {
  readonly #subject = new BehaviorSubject<boolean>(false);
  readonly #errors = new Subject<LeaderError>();
  readonly #changes = iterableObservable(this.#subject.asObservable());
  readonly #errorStream = iterableObservable(this.#errors.asObservable());
  readonly #listeners: Record<LeadershipEvent, Set<LeadershipListener>> = {
    isLeader: new Set(),
    notLeader: new Set(),
  };
  readonly #client: FrameworkClient;
  readonly #logger: Logger;
  readonly #telemetry: LeaderTelemetry | undefined;
  #closed = false;

  /** `client` is the recipe's: failures go to its `unhandledErrors` (and its log) too. */
  constructor(client: FrameworkClient, logger: Logger, telemetry?: LeaderTelemetry) {
    this.#client = client;
    this.#logger = logger;
    this.#telemetry = telemetry;
  }

  get value(): boolean {
    return this.#subject.value;
  }

  get changes(): IterableObservable<boolean> {
    return this.#changes;
  }

  get errors(): IterableObservable<LeaderError> {
    return this.#errorStream;
  }

  /**
   * Sets the flag; on a change the stream emits at once and, with `notify`, the matching
   * listeners are called from microtasks (in the order of the changes).
   */
  set(value: boolean, notify = true): void {
    if (this.#closed) return;
    this.#telemetry?.observed(value);
    if (this.#subject.value === value) return;
    this.#subject.next(value);
    // Logged once the current I/O is done: a log call (formatting, streams; tens of
    // microseconds in a cold process even when the level is off) would otherwise sit between
    // leadership ending and the node's delete going out, and between a successor's confirming
    // read and its takeLeadership.
    const message = value ? 'leadership gained' : 'leadership ended';
    setImmediate(() => this.#logger.info(message));
    if (!notify) return;
    const event: LeadershipEvent = value ? 'isLeader' : 'notLeader';
    for (const listener of this.#listeners[event]) {
      queueMicrotask(() => {
        // One removed in the meantime (or by close) gets nothing more.
        if (this.#listeners[event].has(listener)) this.#call(listener, event);
      });
    }
  }

  on(event: LeadershipEvent, listener: LeadershipListener): () => void {
    if (event !== 'isLeader' && event !== 'notLeader') {
      throw new InvalidArgumentError(
        `unknown event ${describeValue(event)}; use 'isLeader' or 'notLeader'`,
      );
    }
    checkListener(listener);
    // A wrapper per registration: adding the same function twice gives two independent ones.
    const entry: LeadershipListener = () => listener();
    if (!this.#closed) this.#listeners[event].add(entry);
    return () => {
      this.#listeners[event].delete(entry);
    };
  }

  /**
   * Reports a background failure on the errors stream (until closed) and the client's
   * `unhandledErrors`, which also logs it.
   */
  report(error: unknown, context: string): void {
    reportRecipeFailure(this.#client, this.#closed ? undefined : this.#errors, error, context);
  }

  /** Removes every listener and completes both streams (the flag keeps its last value). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#telemetry?.closed();
    this.#listeners.isLeader.clear();
    this.#listeners.notLeader.clear();
    this.#subject.complete();
    this.#errors.complete();
  }

  #call(listener: LeadershipListener, event: LeadershipEvent): void {
    try {
      const result = listener();
      if (result instanceof Promise) {
        result.catch((error: unknown) => this.report(error, `${event} listener`));
      }
    } catch (error) {
      this.report(error, `${event} listener`);
    }
  }
}
