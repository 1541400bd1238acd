// What a DistributedQueue reports about its items, as an rxjs stream and as Curator-style
// listeners. Listeners are isolated: one that throws (or returns a rejected promise) goes to
// client.unhandledErrors (which logs it) and cannot disturb the queue, other listeners, or the
// process.
import { Subject } from 'rxjs';
import {
  iterableObservable,
  type FrameworkClient,
  type IterableObservable,
} from '@zkrecipes/framework';
import { reportRecipeFailure } from '@zkrecipes/framework/recipe-support';
import type { QueueTelemetry } from './queue-telemetry.js';

/** What happened to an item. `path` is always the item's node path. */
export type QueueEvent =
  /** A put (or putMulti) created `path` holding `count` items (Curator's QueuePutListener). */
  | {
      /** Discriminant. */
      readonly type: 'put';
      /** The item node created. */
      readonly path: string;
      /** How many items the node holds (1 for put, more for putMulti). */
      readonly count: number;
    }
  /**
   * The consumer was given the `count` items of `path` and the node is gone from the queue:
   * in safe mode after the consumer succeeded, in plain mode as soon as it was taken.
   */
  | {
      /** Discriminant. */
      readonly type: 'consumed';
      /** The item node consumed. */
      readonly path: string;
      /** How many items the node held. */
      readonly count: number;
    }
  /**
   * The consumer threw. `action` is what happened to the node: `requeue` (put back at the end,
   * as `requeuedAs`), `delete`, or `none` (plain mode: it was already removed).
   */
  | {
      /** Discriminant. */
      readonly type: 'consumerError';
      /** The item node whose consumer failed. */
      readonly path: string;
      /** What the consumer threw. */
      readonly error: unknown;
      /** What was done with the node. */
      readonly action: 'requeue' | 'delete' | 'none';
      /** With `requeue`: the new node at the end of the queue. */
      readonly requeuedAs?: string | undefined;
    }
  /** Safe mode: the item's lock was lost (session ended) before it was finished; it stays queued. */
  | {
      /** Discriminant. */
      readonly type: 'lockLost';
      /** The item node, still queued. */
      readonly path: string;
    }
  /** Safe mode: the item was handed back unprocessed (an iterator loop left early, or close()). */
  | {
      /** Discriminant. */
      readonly type: 'released';
      /** The item node, still queued. */
      readonly path: string;
    }
  /** The node is not a valid envelope, or the serializer rejected it; it was deleted. */
  | {
      /** Discriminant. */
      readonly type: 'corrupt';
      /** The node taken off the queue. */
      readonly path: string;
      /** Why it could not be read. */
      readonly error: unknown;
      /** Where its bytes were parked (`deadLetterPath`); undefined when it was deleted. */
      readonly deadLetter?: string | undefined;
    }
  /** Taking items failed (e.g. no connection); the queue retries with a growing pause. */
  | {
      /** Discriminant. */
      readonly type: 'takeError';
      /** The failure. */
      readonly error: unknown;
    };

/** A Curator-style listener of {@link QueueEvent}s. */
export type QueueListener = (event: QueueEvent) => unknown;

export class QueueEvents {
  readonly #subject = new Subject<QueueEvent>();
  readonly #events = iterableObservable(this.#subject.asObservable());
  readonly #listeners = new Set<QueueListener>();
  readonly #client: FrameworkClient;
  /** The queue's metrics and spans (the consumers' spans are started through it too). */
  readonly telemetry: QueueTelemetry | undefined;

  /** `client` is the queue's: a listener's failure goes to its `unhandledErrors` and log. */
  constructor(client: FrameworkClient, telemetry?: QueueTelemetry) {
    this.#client = client;
    this.telemetry = telemetry;
  }

  get events(): IterableObservable<QueueEvent> {
    return this.#events;
  }

  on(listener: QueueListener): () => void {
    // A fresh wrapper, so adding the same function twice gives two independent registrations.
    const registered: QueueListener = (event) => listener(event);
    this.#listeners.add(registered);
    return () => this.#listeners.delete(registered);
  }

  emit(event: QueueEvent): void {
    this.telemetry?.event(event);
    for (const listener of this.#listeners) {
      try {
        const result = listener(event);
        if (result instanceof Promise) {
          result.catch((error: unknown) => this.#listenerFailed(event, error));
        }
      } catch (error) {
        this.#listenerFailed(event, error);
      }
    }
    this.#subject.next(event);
  }

  close(): void {
    this.#listeners.clear();
    this.#subject.complete();
  }

  #listenerFailed(event: QueueEvent, error: unknown): void {
    reportRecipeFailure(this.#client, undefined, error, `queue listener of a ${event.type} event`);
  }
}
