import { Subject } from 'rxjs';
import type { FrameworkClient } from '../client/framework-client.js';
import { iterableObservable, type IterableObservable } from '../streams/iterable-observable.js';
import { reportRecipeFailure, type RecipeError } from './report-recipe-failure.js';

/**
 * Delivers a recipe's events to its rxjs subscribers and Curator-style listeners so that no
 * consumer can stall or break the recipe: events are queued and delivered in order from a
 * microtask (never inside the recipe's own processing, so a listener that calls back into the
 * recipe sees a consistent state), and a listener that throws or rejects is reported on
 * {@link errors} and the client's `unhandledErrors` (which logs it) instead of propagating.
 *
 * For recipes: each keeps its own `errors` stream (a recipe's failures belong to it), and
 * every failure also reaches `client.unhandledErrors`, the one stream an application watches
 * for all its recipes.
 */
export class EventDispatcher<E> {
  readonly #subject: Subject<E>;
  readonly #errors = new Subject<RecipeError>();
  readonly #errorStream = iterableObservable(this.#errors.asObservable());
  readonly #events: IterableObservable<E>;
  readonly #listeners = new Set<(event: E) => unknown>();
  readonly #client: FrameworkClient;
  readonly #listenerName: string;
  #queue: { event: E; toListeners: boolean; toStream: boolean }[] = [];
  #scheduled = false;
  #closed = false;

  /**
   * `subject` is what {@link events} exposes: a BehaviorSubject when the events are states.
   * `client` is the recipe's client: failures go to its `unhandledErrors` and log.
   */
  constructor(subject: Subject<E>, client: FrameworkClient, listenerName: string) {
    this.#subject = subject;
    this.#events = iterableObservable(subject.asObservable());
    this.#client = client;
    this.#listenerName = listenerName;
  }

  /** The recipe's events, delivered in order from a microtask. */
  get events(): IterableObservable<E> {
    return this.#events;
  }

  /**
   * Failures of listeners and background work; each also goes to the client's
   * `unhandledErrors` and is logged there at error.
   */
  get errors(): IterableObservable<RecipeError> {
    return this.#errorStream;
  }

  /** Adds a listener; returns the function that removes it (queued events included). */
  add(listener: (event: E) => unknown): () => void {
    // A wrapper per registration, so adding the same function twice gives two independent ones.
    const entry = (event: E): unknown => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Queues an event for delivery; ignored after close. */
  emit(event: E): void {
    this.#enqueue(event, true, true);
  }

  /**
   * Queues a value for the stream only, not the listeners: a state the stream must show that
   * is not a change to announce (a silent rebuild). In order with {@link emit}.
   */
  emitToStream(event: E): void {
    this.#enqueue(event, false, true);
  }

  /**
   * Queues a value for the listeners only, not the stream: the value the stream already holds
   * (a BehaviorSubject's current value, which late subscribers get by replay) that listeners
   * must hear too, e.g. an initial view equal to the one the stream started with. In order
   * with {@link emit}.
   */
  emitToListeners(event: E): void {
    this.#enqueue(event, true, false);
  }

  #enqueue(event: E, toListeners: boolean, toStream: boolean): void {
    if (this.#closed) return;
    this.#queue.push({ event, toListeners, toStream });
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => this.#drain());
  }

  /**
   * Reports a background failure on {@link errors} (until closed) and the client's
   * `unhandledErrors`, which also logs it.
   */
  report(error: unknown, context: string): void {
    reportRecipeFailure(this.#client, this.#closed ? undefined : this.#errors, error, context);
  }

  /**
   * Publishes on {@link errors} only a failure that an inner recipe (a cache or a node this
   * recipe owns) has reported to the client already, so `unhandledErrors` and the log get it
   * once.
   */
  forward(error: unknown, context: string): void {
    if (!this.#closed) this.#errors.next({ error, context });
  }

  /** Drops queued events, removes every listener and completes the streams. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#listeners.clear();
    this.#subject.complete();
    this.#errors.complete();
  }

  #drain(): void {
    this.#scheduled = false;
    const batch = this.#queue;
    this.#queue = [];
    for (const { event, toListeners, toStream } of batch) {
      if (this.#closed) return;
      if (toStream) this.#subject.next(event);
      if (!toListeners) continue;
      for (const listener of [...this.#listeners]) {
        // One removed by an earlier listener of this event gets nothing more.
        if (this.#listeners.has(listener)) this.#call(listener, event);
      }
    }
  }

  #call(listener: (event: E) => unknown, event: E): void {
    try {
      const result = listener(event);
      if (isPromiseLike(result)) {
        result.then(undefined, (error: unknown) => this.report(error, this.#listenerName));
      }
    } catch (error) {
      this.report(error, this.#listenerName);
    }
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
