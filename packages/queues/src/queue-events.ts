// What a DistributedQueue reports about its items, as an rxjs stream and as Curator-style
// listeners. Listeners are isolated: one that throws (or returns a rejected promise) is logged
// and cannot disturb the queue, other listeners, or the process.
import { Subject, type Observable } from 'rxjs';
import type { Logger } from '@zkrecipes/framework';

/** What happened to an item. `path` is always the item's node path. */
export type QueueEvent =
  /** A put (or putMulti) created `path` holding `count` items (Curator's QueuePutListener). */
  | { readonly type: 'put'; readonly path: string; readonly count: number }
  /**
   * The consumer was given the `count` items of `path` and the node is gone from the queue:
   * in safe mode after the consumer succeeded, in plain mode as soon as it was taken.
   */
  | { readonly type: 'consumed'; readonly path: string; readonly count: number }
  /**
   * The consumer threw. `action` is what happened to the node: `requeue` (put back at the end,
   * as `requeuedAs`), `delete`, or `none` (plain mode: it was already removed).
   */
  | {
      readonly type: 'consumerError';
      readonly path: string;
      readonly error: unknown;
      readonly action: 'requeue' | 'delete' | 'none';
      readonly requeuedAs?: string | undefined;
    }
  /** Safe mode: the item's lock was lost (session ended) before it was finished; it stays queued. */
  | { readonly type: 'lockLost'; readonly path: string }
  /** Safe mode: the item was handed back unprocessed (an iterator loop left early, or close()). */
  | { readonly type: 'released'; readonly path: string }
  /** The node is not a valid envelope, or the serializer rejected it; it was deleted. */
  | { readonly type: 'corrupt'; readonly path: string; readonly error: unknown }
  /** Taking items failed (e.g. no connection); the queue retries with a growing pause. */
  | { readonly type: 'takeError'; readonly error: unknown };

/** A Curator-style listener of {@link QueueEvent}s. */
export type QueueListener = (event: QueueEvent) => unknown;

export class QueueEvents {
  readonly #subject = new Subject<QueueEvent>();
  readonly #listeners = new Set<QueueListener>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  get events$(): Observable<QueueEvent> {
    return this.#subject.asObservable();
  }

  on(listener: QueueListener): () => void {
    // A fresh wrapper, so adding the same function twice gives two independent registrations.
    const registered: QueueListener = (event) => listener(event);
    this.#listeners.add(registered);
    return () => this.#listeners.delete(registered);
  }

  emit(event: QueueEvent): void {
    for (const listener of this.#listeners) {
      try {
        const result = listener(event);
        if (result instanceof Promise) {
          result.catch((error: unknown) => this.#logger.error('queue listener failed', { error }));
        }
      } catch (error) {
        this.#logger.error('queue listener threw', { event: event.type, error });
      }
    }
    this.#subject.next(event);
  }

  close(): void {
    this.#listeners.clear();
    this.#subject.complete();
  }
}
