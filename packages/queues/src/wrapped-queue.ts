// What DistributedPriorityQueue, DistributedDelayQueue and DistributedIdQueue share: each wraps
// a DistributedQueue made with its own order (as Curator's wrap theirs), and passes the
// lifecycle, the consuming side and the events through.
import type { FrameworkClient, IterableObservable, SignalOptions } from '@zkrecipes/framework';
import type { DistributedQueueOptions } from './distributed-queue-options.js';
import { DistributedQueue, type QueueState, type QueueVariant } from './distributed-queue.js';
import type { QueueEvent, QueueListener } from './queue-events.js';
import type { WaitOptions } from './check-queue-input.js';

export abstract class WrappedQueue<T> {
  /** The FIFO machinery, ordered the wrapping queue's way. */
  protected readonly queue: DistributedQueue<T>;

  protected constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedQueueOptions<T>,
    variant: QueueVariant,
  ) {
    this.queue = new DistributedQueue(client, queuePath, options, variant);
  }

  /** LATENT before start(), STARTED, then CLOSED. */
  get state(): QueueState {
    return this.queue.state;
  }

  /** The queue's path. */
  get path(): string {
    return this.queue.path;
  }

  /** The lock path of safe mode, or undefined. */
  get lockPath(): string | undefined {
    return this.queue.lockPath;
  }

  /** Children of the queue at its last listing (Curator's `getLastMessageCount`). */
  get lastMessageCount(): number {
    return this.queue.lastMessageCount;
  }

  /** What happens to items, as a stream (puts, consumed, errors, lost locks, corrupt nodes). */
  get events(): IterableObservable<QueueEvent> {
    return this.queue.events;
  }

  /** Curator-style listener of the same events; returns the function that removes it. */
  on(event: 'event', listener: QueueListener): () => void {
    return this.queue.on(event, listener);
  }

  /**
   * Creates the queue's node (and the lock path's) and starts the consumer if there is one;
   * `signal` as in {@link DistributedQueue.start}.
   */
  start(options: SignalOptions = {}): Promise<void> {
    return this.queue.start(options);
  }

  /**
   * Items as an async iterator, in the queue's order (see {@link DistributedQueue.items}).
   */
  items(options: { readonly signal?: AbortSignal | undefined } = {}): AsyncIterableIterator<T> {
    return this.queue.items(options);
  }

  /** Resolves true once no put is in flight, false if `timeoutMs` passes first. */
  flushPuts(options: WaitOptions = {}): Promise<boolean> {
    return this.queue.flushPuts(options);
  }

  /** Stops, as {@link DistributedQueue.close}; a second call does nothing. */
  close(): Promise<void> {
    return this.queue.close();
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
