import { ClosedError, type FrameworkClient, IllegalStateError } from '@zkrecipes/framework';
import {
  CallLimits,
  requestSignal,
  checkWaitOptions,
  untilFirstConnection,
} from '@zkrecipes/framework/recipe-support';
import type { DistributedQueueOptions } from './distributed-queue-options.js';
import { PUT_NAMED, type PutOptions } from './distributed-queue.js';
import { fixId, ID_ORDER, idOf, idPrefix, checkItemId } from './id-order.js';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';
import { removeItems } from './remove-items.js';
import type { WaitOptions } from './check-queue-input.js';
import { WrappedQueue } from './wrapped-queue.js';

/** Options of {@link DistributedIdQueue}: DistributedQueue's. */
export type DistributedIdQueueOptions<T> = DistributedQueueOptions<T>;

/**
 * A FIFO queue whose items carry an id, so they can be removed before they are taken (Curator's
 * `DistributedIdQueue`). The id is in the node's name (`queue-|<id>|<sequence>`, with `/` and
 * `|` in it written as `_`, as Curator does); items are taken in put order whatever their ids.
 * Everything else (safe mode, consumers, bounds, events) is DistributedQueue's.
 *
 * ```ts
 * const jobs = new DistributedIdQueue(client, '/app/jobs', { serializer: stringSerializer() });
 * await jobs.start();
 * await jobs.put('render report 7', 'report-7');
 * await jobs.remove('report-7'); // -> 1: cancelled before anyone took it
 * ```
 */
export class DistributedIdQueue<T = Buffer> extends WrappedQueue<T> {
  readonly #client: FrameworkClient;
  readonly #closing = new AbortController();

  constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedIdQueueOptions<T> = {},
  ) {
    super(client, queuePath, options, { recipe: 'DistributedIdQueue', order: ID_ORDER });
    this.#client = client;
  }

  /**
   * Adds one item with `id` (a non-empty string; several items may share one). Otherwise as
   * {@link DistributedQueue.put}.
   */
  async put(item: T, id: string, options: PutOptions = {}): Promise<string> {
    checkItemId(id);
    return this.queue[PUT_NAMED](idPrefix(id), [item], false, options);
  }

  /**
   * Removes every item with `id` still in the queue; resolves how many this call removed. In
   * safe mode an item a consumer holds is not removed (as in Curator). `id` is written the way
   * put writes it (`/` and `|` as `_`), so it finds what `put(item, id)` added. (Curator's
   * remove compares the id as given, and finds nothing for an id with `/` or `|`.) Rejects
   * with the deadline's error when `timeoutMs` passes, with the signal's reason on abort, and
   * with ClosedError when the queue closes first.
   */
  async remove(id: string, options: WaitOptions = {}): Promise<number> {
    checkItemId(id);
    checkWaitOptions(options);
    if (this.state !== 'STARTED') {
      throw new IllegalStateError(`remove while ${this.state}: start() the queue first`, {
        path: this.path,
      });
    }
    options.signal?.throwIfAborted();
    // The time limit counts from the client's first connection (see untilFirstConnection);
    // the queue's close ends that wait too.
    const closed = this.#closing.signal;
    const connecting = untilFirstConnection(
      this.#client,
      options.signal === undefined ? closed : AbortSignal.any([options.signal, closed]),
    );
    if (connecting !== undefined) await connecting;
    using limits = CallLimits.of(this.#client, options.timeoutMs, options.signal);
    const signal =
      limits === undefined
        ? this.#closing.signal
        : requestSignal(this.#client, limits.signal, this.#closing.signal);
    const wanted = fixId(id);
    const children = await this.#client.getChildren(this.path, { signal });
    const names = children.filter(
      (name) => name.startsWith(DISTRIBUTED_QUEUE_PREFIX) && idOf(name) === wanted,
    );
    return removeItems(names, {
      client: this.#client,
      queuePath: this.path,
      lockPath: this.lockPath,
      signal,
    });
  }

  /** Stops, as {@link DistributedQueue.close}; a remove under way rejects with ClosedError. */
  override close(): Promise<void> {
    if (!this.#closing.signal.aborted) {
      this.#closing.abort(new ClosedError({ path: this.path, detail: 'the queue is closed' }));
    }
    return super.close();
  }
}
