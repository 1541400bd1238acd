import {
  ClosedError,
  type FrameworkClient,
  IllegalStateError,
  InvalidArgumentError,
  isErrorState,
  type ConnectionState,
  joinPath,
  type Logger,
  type RecipeState,
  type IterableObservable,
  type SignalOptions,
} from '@zkrecipes/framework';
import {
  assertClientStarted,
  CallLimits,
  checkClient,
  checkRecipeOptions,
  checkEventListener,
  checkSignalOptions,
  requestSignal,
  TIMED_OUT,
  connectionStreamOf,
  waitForWake,
  whileConnected,
  checkWaitOptions,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { Closing } from './closing.js';
import { resolveQueueOptions, type DistributedQueueOptions } from './distributed-queue-options.js';
import { ensureAndList, ensureNode } from './ensure-queue-path.js';
import { encodeEnvelope, envelopeSize } from './item-envelope.js';
import type { ItemOrder } from './item-order.js';
import { LockSafety } from './lock-safety.js';
import { assertQueuePathOwned } from './path-ownership.js';
import { PutLimiter } from './put-limiter.js';
import { QueueTelemetry } from './queue-telemetry.js';
import { QueueConsumption, type QueueConsumer } from './queue-consumption.js';
import { QueueEvents, type QueueEvent, type QueueListener } from './queue-events.js';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';
import type { QueueSerializer } from './queue-serializer.js';
import { QueueTaker } from './queue-taker.js';
import { checkNodeSize, type WaitOptions } from './check-queue-input.js';

/** The queue's lifecycle: the framework's RecipeState (LATENT, STARTED, CLOSED). */
export type QueueState = RecipeState;

/** Options of put and putMulti. */
export type PutOptions = WaitOptions;

/**
 * How a priority, delay or id queue differs from the FIFO: its order and its name in logs.
 * Internal: those queues wrap a DistributedQueue made with one (as Curator's do).
 */
export interface QueueVariant {
  readonly recipe: string;
  readonly order: ItemOrder;
  readonly minItemsBeforeRefresh?: number | undefined;
}

/** The put of the wrapping queues, with the node's name before its sequence (internal). */
export const PUT_NAMED: unique symbol = Symbol('putNamed');

/**
 * A FIFO queue on ZooKeeper (Curator's `DistributedQueue`), with Curator's node layout and bytes:
 * each put is a persistent sequential `queue-` node holding Curator's envelope, so Java and Node
 * producers and consumers share queues. See docs/recipes/queues.md for when not to use it.
 *
 * ```ts
 * const queue = new DistributedQueue(client, '/app/jobs', {
 *   serializer: jsonSerializer<Job>(),
 *   lockPath: '/app/jobs-locks',            // safe mode
 *   consumer: async (job, { signal }) => run(job, signal),
 * });
 * await queue.start();
 * await queue.put({ id: 1 });
 * await queue.close();
 * ```
 *
 * Taking does not list the queue per item: one sorted listing is walked, refreshed on the
 * children watch when it runs dry; item data is read ahead, so an item costs one round trip.
 */
export class DistributedQueue<T = Buffer> {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #lockPath: string | undefined;
  readonly #serializer: QueueSerializer<T>;
  readonly #consumer: QueueConsumer<T> | undefined;
  readonly #concurrency: number;
  readonly #closeTimeoutMs: number;
  readonly #logger: Logger;
  readonly #events: QueueEvents;
  readonly #limiter: PutLimiter;
  readonly #safety: LockSafety | undefined;
  readonly #taker: QueueTaker;
  readonly #consumption: QueueConsumption<T>;
  /** Aborted by close() (after puts in flight had their time), with a ClosedError. */
  readonly #closing = new Closing();
  readonly #telemetry: QueueTelemetry;
  #state: QueueState = 'LATENT';
  #stopStates: (() => void) | undefined;
  #pendingPuts = 0;
  #putsSettled: (() => void)[] = [];

  constructor(client: FrameworkClient, queuePath: string, options?: DistributedQueueOptions<T>);
  /** @internal With `variant`: the priority, delay and id queues wrap one made so. */
  constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedQueueOptions<T> | undefined,
    variant: QueueVariant | undefined,
  );
  constructor(
    client: FrameworkClient,
    queuePath: string,
    options: DistributedQueueOptions<T> = {},
    variant?: QueueVariant,
  ) {
    const recipe = variant?.recipe ?? 'DistributedQueue';
    checkClient(recipe, client);
    checkRecipeOptions(recipe, options, [
      'serializer',
      'consumer',
      'lockPath',
      'errorMode',
      'maxItems',
      'hardMaxItems',
      'concurrency',
      'prefetch',
      'closeTimeoutMs',
      'deadLetterPath',
      // DistributedPriorityQueue's own
      ...(recipe === 'DistributedPriorityQueue' ? ['minItemsBeforeRefresh'] : []),
    ]);
    const {
      lockPath,
      serializer,
      consumer,
      errorMode,
      maxItems,
      hardMaxItems,
      concurrency,
      prefetch,
      closeTimeoutMs,
      deadLetterPath,
    } = resolveQueueOptions(queuePath, options);
    this.#client = client;
    this.#path = queuePath;
    this.#lockPath = lockPath;
    this.#serializer = serializer;
    this.#consumer = consumer;
    this.#concurrency = concurrency;
    this.#closeTimeoutMs = closeTimeoutMs;
    this.#logger = client.logger.child({ component: recipe, path: queuePath });
    this.#telemetry = new QueueTelemetry(client, recipe, queuePath, () => this.#taker.lastCount);
    this.#events = new QueueEvents(client, this.#telemetry);
    this.#limiter = new PutLimiter(client, queuePath, maxItems, hardMaxItems);
    this.#safety =
      lockPath === undefined
        ? undefined
        : new LockSafety(client, queuePath, lockPath, this.#logger, variant?.order.requeuePrefix);
    this.#taker = new QueueTaker({
      client,
      queuePath,
      prefix: DISTRIBUTED_QUEUE_PREFIX,
      order: variant?.order,
      minItemsBeforeRefresh: variant?.minItemsBeforeRefresh,
      safety: this.#safety,
      prefetch,
      logger: this.#logger,
    });
    this.#consumption = new QueueConsumption({
      client,
      taker: this.#taker,
      safety: this.#safety,
      serializer,
      errorMode,
      events: this.#events,
      logger: this.#logger,
      deadLetterPath,
    });
  }

  /** LATENT before start(), STARTED, then CLOSED. */
  get state(): QueueState {
    return this.#state;
  }

  /** The queue's path. */
  get path(): string {
    return this.#path;
  }

  /** The lock path of safe mode, or undefined. */
  get lockPath(): string | undefined {
    return this.#lockPath;
  }

  /** Children of the queue at its last listing (Curator's `getLastMessageCount`). */
  get lastMessageCount(): number {
    return this.#taker.lastCount;
  }

  /** Curator's `getLastMessageCount()`: {@link lastMessageCount}. */
  getLastMessageCount(): number {
    return this.#taker.lastCount;
  }

  /** What happens to items, as a stream (puts, consumed, errors, lost locks, corrupt nodes). */
  get events(): IterableObservable<QueueEvent> {
    return this.#events.events;
  }

  /** Curator-style listener of the same events; returns the function that removes it. */
  on(event: 'event', listener: QueueListener): () => void {
    checkEventListener('event', event, listener);
    return this.#events.on(listener);
  }

  /**
   * Creates the queue's node (and the lock path's), checks no other recipe uses the path, and
   * starts the consumer if there is one. A second call rejects. Aborting `signal` rejects with
   * its reason at once (requests still waiting for a connection are never sent) and, as any
   * failed start, leaves the queue closed. On a client not started yet (IllegalStateError) or
   * closed (ClosedError) it rejects before anything instead, and the queue can be started once
   * the client is.
   */
  async start(options: SignalOptions = {}): Promise<void> {
    const signal = checkSignalOptions(options);
    if (this.#state !== 'LATENT') {
      throw new IllegalStateError(`start() while ${this.#state}: a queue starts once`, {
        path: this.#path,
      });
    }
    // Nothing to undo yet: the queue stays LATENT, startable once the client is.
    assertClientStarted(this.#client, this.#path);
    this.#state = 'STARTED';
    this.#telemetry.started();
    try {
      const lockPath = this.#lockPath;
      const closing =
        signal === undefined
          ? this.#closing.signal
          : AbortSignal.any([this.#closing.signal, signal]);
      const [children] = await Promise.all([
        ensureAndList(this.#client, this.#path, closing),
        lockPath === undefined ? undefined : ensureNode(this.#client, lockPath, closing),
      ]);
      assertQueuePathOwned(this.#path, children, 'DistributedQueue');
      this.#limiter.seed(children.length);
    } catch (error) {
      this.#state = 'CLOSED';
      this.#shutDown();
      throw error;
    }
    const safety = this.#safety;
    if (safety !== undefined) {
      const stream = connectionStreamOf(this.#client);
      const onState = (state: ConnectionState): void => {
        if (isErrorState(state, stream.errorPolicy)) safety.holdMayBeLost(state);
      };
      // As a replaying subscription would: the state now first, then every change.
      const current = stream.state;
      if (current !== undefined) onState(current);
      this.#stopStates = stream.onChange(onState);
    }
    if (this.#consumer !== undefined) {
      this.#consumption.startWorkers(this.#consumer, this.#concurrency);
    }
  }

  /**
   * Adds one item; resolves the node's path once it is written. On a full bounded queue it
   * waits for room up to `timeoutMs`, then rejects with QueueFullError; when the time runs out
   * before the item could be written (no connection), it rejects with the deadline's
   * TimeoutError. An item too big for a node, or that the serializer refuses, rejects before
   * anything is sent. A put still waiting for a connection when the queue closes rejects with
   * ClosedError and is never sent.
   */
  put(item: T, options: PutOptions = {}): Promise<string> {
    return this.#put([item], undefined, options);
  }

  /**
   * Adds several items as one node (Curator's `putMulti`): they are taken together, in order,
   * and count as one node against the bounds. The whole envelope must fit in one node.
   */
  putMulti(items: readonly T[], options: PutOptions = {}): Promise<string> {
    return this[PUT_NAMED](DISTRIBUTED_QUEUE_PREFIX, items, true, options);
  }

  /**
   * Internal: put or putMulti (`multi`) as a node named `name` plus the server's sequence (the
   * priority, delay and id queues' names).
   */
  [PUT_NAMED](
    name: string,
    items: readonly T[],
    multi: boolean,
    options: PutOptions,
  ): Promise<string> {
    if (!multi) return this.#put(items, undefined, options, name);
    if (!Array.isArray(items) || items.length === 0) {
      return Promise.reject(
        new InvalidArgumentError(
          `putMulti takes a non-empty array; got ${Array.isArray(items) ? 'an empty array' : describeValue(items)}`,
          {
            path: this.#path,
          },
        ),
      );
    }
    return this.#put(items, items.length, options, name);
  }

  /**
   * Items as an async iterator (the queue must be started; it ends when the queue closes or
   * `signal` aborts). An item counts as done when the loop asks for the next one; in safe mode
   * leaving the loop while holding an item (break, return, throw) hands it back unprocessed,
   * so it is delivered again. Each iterator is one more consumer of the queue.
   */
  items(options: { readonly signal?: AbortSignal | undefined } = {}): AsyncIterableIterator<T> {
    if (this.#state !== 'STARTED') {
      throw new IllegalStateError(`items() while ${this.#state}: start() the queue first`, {
        path: this.#path,
      });
    }
    checkWaitOptions(options);
    return this.#consumption.iterate(options.signal);
  }

  /**
   * Resolves true once no put is in flight, false if `timeoutMs` passes first (Curator's
   * `flushPuts`); rejects with the signal's reason on abort.
   */
  async flushPuts(options: WaitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    if (this.#pendingPuts === 0) return true;
    let settle = (): void => undefined;
    const flushed = new Promise<void>((resolve) => (settle = resolve));
    this.#putsSettled.push(settle);
    const woken = await waitForWake(flushed, {
      deadline: timeoutMs === undefined ? undefined : performance.now() + timeoutMs,
      signal,
      closed: connectionStreamOf(this.#client).closedSignal,
      path: this.#path,
    }).finally(() => {
      const index = this.#putsSettled.indexOf(settle);
      if (index >= 0) this.#putsSettled.splice(index, 1);
    });
    return woken !== TIMED_OUT;
  }

  /**
   * Stops: no new items are taken; puts and consumer calls in flight get `closeTimeoutMs` to
   * finish (puts only while the connection is up: a put waiting for a connection is cut off at
   * once, with ClosedError), then items still held are handed back (safe mode), and the
   * presence node is removed (both waited for up to another `closeTimeoutMs`, while the
   * connection is up). Watches are silenced and listeners removed. With the server unreachable
   * it resolves at once, and what needs the server goes on in the background. A second call
   * does nothing.
   */
  async close(): Promise<void> {
    if (this.#state === 'CLOSED') return;
    const started = this.#state === 'STARTED';
    this.#state = 'CLOSED';
    const deadline = performance.now() + this.#closeTimeoutMs;
    const remainingMs = (): number => Math.max(0, deadline - performance.now());
    if (this.#pendingPuts > 0) {
      await whileConnected(this.#client, { withinMs: this.#closeTimeoutMs }).wait(this.flushPuts());
    }
    this.#closing.close(new ClosedError({ path: this.#path, detail: 'the queue is closed' }));
    if (started) await this.#consumption.stop(remainingMs());
    this.#shutDown();
    await this.#safety?.close(this.#closeTimeoutMs);
  }

  /** Same as close(): for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #shutDown(): void {
    this.#stopStates?.();
    this.#telemetry.stopped();
    this.#taker.close();
    this.#events.close();
  }

  async #put(
    items: readonly T[],
    multi: number | undefined,
    options: PutOptions,
    name = DISTRIBUTED_QUEUE_PREFIX,
  ): Promise<string> {
    if (this.#state !== 'STARTED') {
      throw new IllegalStateError(`put while ${this.#state}: start() the queue first`, {
        path: this.#path,
      });
    }
    checkWaitOptions(options);
    options.signal?.throwIfAborted();
    const serialized = items.map((item) => this.#serialize(item));
    const itemBytes = serialized.reduce((sum, bytes) => sum + bytes.byteLength, 0);
    const size = envelopeSize(serialized.map((bytes) => bytes.byteLength));
    checkNodeSize(
      multi === undefined ? 'queue item' : `putMulti envelope of ${multi} items`,
      size,
      ` (${itemBytes} bytes of items and ${size - itemBytes} of Curator's envelope)`,
      this.#path,
    );
    // Disposed by hand: `using` compiles to a helper that costs more than the rest here.
    const limits = CallLimits.of(this.#client, options.timeoutMs, options.signal);
    const closing = this.#closing;
    this.#pendingPuts += 1;
    const putEnded = this.#telemetry.putStarted();
    try {
      if (!this.#limiter.tryReserve()) {
        const signal = requestSignal(this.#client, limits?.signal, closing.signal);
        await this.#limiter.reserve({ limits, signal });
      }
      const creating = this.#client.create(joinPath(this.#path, name), {
        data: encodeEnvelope(serialized),
        mode: 'PERSISTENT_SEQUENTIAL',
        createParents: true,
        // A put whose reply was lost is neither queued twice nor reported as failed.
        idempotent: true,
        signal: requestSignal(this.#client, limits?.signal, closing.signal),
      });
      const path = await closing.until(creating);
      this.#events.emit({ type: 'put', path, count: items.length });
      putEnded();
      return path;
    } catch (error) {
      putEnded(error);
      throw error;
    } finally {
      limits?.[Symbol.dispose]();
      this.#pendingPuts -= 1;
      if (this.#pendingPuts === 0) for (const settle of this.#putsSettled.splice(0)) settle();
    }
  }

  #serialize(item: T): Uint8Array {
    const bytes = this.#serializer.serialize(item);
    if (!(bytes instanceof Uint8Array)) {
      throw new InvalidArgumentError(
        `serializer.serialize must return a Buffer or Uint8Array; got ${describeValue(bytes)}`,
        { path: this.#path },
      );
    }
    return bytes;
  }
}
