import {
  ClosedError,
  type FrameworkClient,
  InvalidArgumentError,
  joinPath,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import {
  CallLimits,
  checkClient,
  checkRecipeOptions,
  requestSignal,
  checkWaitOptions,
  untilFirstConnection,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { Closing } from './closing.js';
import { ensureAndList } from './ensure-queue-path.js';
import { NoSuchElementError } from './no-such-element-error.js';
import { assertQueuePathOwned } from './path-ownership.js';
import { DEFAULT_HARD_MAX_ITEMS, PutLimiter } from './put-limiter.js';
import { SIMPLE_QUEUE_PREFIX } from './queue-node-names.js';
import { QueueTaker } from './queue-taker.js';
import { QueueTelemetry, type TakeOutcome } from './queue-telemetry.js';
import { checkNodeSize, checkWholeNumber, type WaitOptions } from './check-queue-input.js';

/** Options of {@link SimpleDistributedQueue}. */
export interface SimpleDistributedQueueOptions {
  /** How many items' data is read ahead of take(). Default: 8. */
  readonly prefetch?: number | undefined;
  /**
   * offer() on a queue of this many nodes fails at once with QueueFullError (see
   * DistributedQueue's option of the same name). Default: 50,000.
   */
  readonly hardMaxItems?: number | undefined;
}

/**
 * A FIFO queue of raw byte items (Curator's `SimpleDistributedQueue`, itself ZooKeeper's own
 * queue recipe): each item is a persistent sequential `qn-` node holding the bytes as they are,
 * so it shares queues with Curator and with ZooKeeper's recipe.
 *
 * ```ts
 * const queue = new SimpleDistributedQueue(client, '/app/tasks');
 * await queue.offer(Buffer.from('job-1'));
 * const next = await queue.take();                     // waits for an item
 * const maybe = await queue.poll({ timeoutMs: 1000 }); // null after 1 s
 * ```
 *
 * Unlike Curator's, which lists and sorts the whole queue for every take, it keeps one sorted
 * listing, lists again in the background before that runs dry, and reads item data ahead in
 * batches: a take is one round trip. It needs no start(); close() releases its watch and
 * pending calls.
 * A taken item is removed before it is returned: if the taker dies right after, the item is
 * lost. Use DistributedQueue with a lockPath when that matters.
 *
 * Every call ends on time with the server unreachable: one with `timeoutMs` answers its
 * "nothing" value (null) when the time runs out, one with a `signal` rejects with its reason,
 * and one with neither waits for the connection until the queue or the client closes
 * (ClosedError).
 */
export class SimpleDistributedQueue {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #taker: QueueTaker;
  readonly #limiter: PutLimiter;
  readonly #telemetry: QueueTelemetry;
  /** `<path>/qn-`, what offer() creates. */
  readonly #itemPath: string;
  /** Aborted by close(), with a ClosedError: ends every request and wait of the queue. */
  readonly #closing = new Closing();
  #ready: Promise<void> | undefined;
  #isReady = false;

  constructor(client: FrameworkClient, path: string, options: SimpleDistributedQueueOptions = {}) {
    checkClient('SimpleDistributedQueue', client);
    checkRecipeOptions('SimpleDistributedQueue', options, ['prefetch', 'hardMaxItems']);
    validatePath(path, { allowRoot: false });
    const { prefetch = 8, hardMaxItems = DEFAULT_HARD_MAX_ITEMS } = options;
    checkWholeNumber('prefetch', prefetch, 1, 1000);
    checkWholeNumber('hardMaxItems', hardMaxItems, 1, Number.MAX_SAFE_INTEGER);
    this.#client = client;
    this.#path = path;
    this.#itemPath = joinPath(path, SIMPLE_QUEUE_PREFIX);
    const logger = client.logger.child({ component: 'SimpleDistributedQueue', path });
    this.#taker = new QueueTaker({
      client,
      queuePath: path,
      prefix: SIMPLE_QUEUE_PREFIX,
      safety: undefined,
      prefetch,
      logger,
    });
    this.#limiter = new PutLimiter(client, path, undefined, hardMaxItems);
    this.#telemetry = new QueueTelemetry(client, 'SimpleDistributedQueue', path);
  }

  /** The queue's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * Adds an item (Curator's `offer`); resolves `true` once it is written. Data over the node
   * limit, or not bytes, rejects before anything is sent; so does a closed queue (ClosedError).
   * `signal` ends it (a request still waiting for a connection is then never sent).
   */
  async offer(data: Uint8Array, options: SignalOptions = {}): Promise<true> {
    this.#assertOpen();
    if (!(data instanceof Uint8Array)) {
      throw new InvalidArgumentError(
        `offer() takes a Buffer or Uint8Array; got ${describeValue(data)} (a ` +
          'SimpleDistributedQueue stores raw bytes: encode it first, e.g. Buffer.from(text))',
        { path: this.#path },
      );
    }
    checkNodeSize('queue item', data.byteLength, '', this.#path);
    checkWaitOptions(options);
    const { signal } = options;
    signal?.throwIfAborted();
    const limits = CallLimits.of(this.#client, undefined, signal);
    const closing = this.#closing;
    const putEnded = this.#telemetry.putStarted();
    try {
      // Once ready and under the bound, the create is sent without an await before it.
      if (!this.#isReady) await closing.until(this.#ensureReady(), limits);
      if (!this.#limiter.tryReserve()) {
        await this.#limiter.reserve({
          signal: requestSignal(this.#client, signal, closing.signal),
        });
      }
      const creating = this.#client.create(this.#itemPath, {
        data,
        mode: 'PERSISTENT_SEQUENTIAL',
        createParents: true,
        // A put whose reply was lost is neither queued twice nor reported as failed.
        idempotent: true,
        signal: requestSignal(this.#client, signal, closing.signal),
      });
      const created = await closing.until(creating);
      this.#telemetry.event({ type: 'put', path: created, count: 1 });
      putEnded();
    } catch (error) {
      putEnded(error);
      throw error;
    } finally {
      limits?.[Symbol.dispose]();
    }
    return true;
  }

  /** Removes and returns the head, waiting for one (Curator's `take`). */
  take(options?: SignalOptions): Promise<Buffer>;
  /** Removes and returns the head, waiting at most `timeoutMs`; null if none came. */
  take(options: WaitOptions & { readonly timeoutMs: number }): Promise<Buffer | null>;
  async take(options: WaitOptions = {}): Promise<Buffer | null> {
    checkWaitOptions(options);
    return this.#take(true, options);
  }

  /**
   * Removes and returns the head, or null when the queue is empty (Curator's `poll()`). With
   * `timeoutMs`, waits up to that long for an item first (Curator's `poll(timeout, unit)`);
   * `timeoutMs: 0` looks once and never waits for a connection.
   */
  async poll(options: WaitOptions = {}): Promise<Buffer | null> {
    checkWaitOptions(options);
    return this.#take(options.timeoutMs !== undefined, options);
  }

  /** The head's data without removing it, or null when the queue is empty. */
  async peek(options: SignalOptions = {}): Promise<Buffer | null> {
    checkWaitOptions(options);
    this.#assertOpen();
    const { signal } = options;
    signal?.throwIfAborted();
    const limits = CallLimits.of(this.#client, undefined, signal);
    try {
      if (!this.#isReady) await this.#closing.until(this.#ensureReady(), limits);
      return (await this.#taker.peek(limits))?.data ?? null;
    } finally {
      limits?.[Symbol.dispose]();
    }
  }

  /** The head's data without removing it; rejects with NoSuchElementError when empty. */
  async element(options: SignalOptions = {}): Promise<Buffer> {
    const data = await this.peek(options);
    if (data === null) throw new NoSuchElementError(this.#path);
    return data;
  }

  /** Removes and returns the head; rejects with NoSuchElementError when empty. */
  async remove(options: SignalOptions = {}): Promise<Buffer> {
    checkWaitOptions(options);
    const data = await this.poll({ signal: options.signal });
    if (data === null) throw new NoSuchElementError(this.#path);
    return data;
  }

  /**
   * Silences the watch and rejects pending calls with ClosedError (requests still waiting for a
   * connection are never sent); later calls reject with ClosedError before sending anything. A
   * take whose claim is in flight still gets its item while the connection is up. Resolves at
   * once. Twice is a no-op.
   */
  close(): Promise<void> {
    if (!this.#closing.closed) {
      this.#closing.close(new ClosedError({ path: this.#path, detail: 'the queue is closed' }));
      this.#taker.close();
    }
    return Promise.resolve();
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #take(wait: boolean, options: WaitOptions): Promise<Buffer | null> {
    this.#assertOpen();
    options.signal?.throwIfAborted();
    // The time limit counts from the client's first connection (see untilFirstConnection);
    // the queue's close ends that wait too.
    const closed = this.#closing.signal;
    const connecting = untilFirstConnection(
      this.#client,
      options.signal === undefined ? closed : AbortSignal.any([options.signal, closed]),
    );
    if (connecting !== undefined) await connecting;
    // Disposed by hand: `using` compiles to a helper that costs more than the whole call here.
    const limits = CallLimits.of(this.#client, options.timeoutMs, options.signal);
    const takeEnded = this.#telemetry.takeStarted();
    let outcome: TakeOutcome = 'error';
    let failure: unknown;
    try {
      if (!this.#isReady) await this.#closing.until(this.#ensureReady(), limits);
      const taken = await this.#taker.take({ wait, limits });
      // Without a wait, nothing means the queue looked empty; with one, that the wait ran out.
      outcome = taken !== undefined ? 'ok' : wait ? 'timed_out' : 'empty';
      return taken?.data ?? null;
    } catch (error) {
      if (limits?.ranOut(error) !== true) {
        failure = error;
        throw error;
      }
      outcome = 'timed_out';
      return null;
    } finally {
      takeEnded(outcome, failure);
      limits?.[Symbol.dispose]();
    }
  }

  #assertOpen(): void {
    this.#closing.throwIfClosed();
  }

  /**
   * Once: create the path if needed, check no other recipe uses it, count its items. Shared by
   * every call, so it ends with the queue, not with one call's limits.
   */
  #ensureReady(): Promise<void> {
    const closing = this.#closing.signal;
    // A container, as Curator's EnsureContainers makes it: the server reaps an emptied queue,
    // and offer() (createParents) makes it again.
    this.#ready ??= ensureAndList(this.#client, this.#path, closing, 'CONTAINER').then(
      (children) => {
        assertQueuePathOwned(this.#path, children, 'SimpleDistributedQueue');
        this.#limiter.seed(children.length);
        this.#isReady = true;
      },
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }
}
