// The options of QueueSharder: its policies (Curator's QueueSharderPolicies), the allocator of a
// shard's queue, their defaults and checks, kept apart from the class so it reads as behaviour.
import {
  type FrameworkClient,
  InvalidArgumentError,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import {
  checkFunction,
  checkRecipeOptions,
  positiveIntegerOption,
  describeValue,
} from '@zkrecipes/framework/recipe-support';
import { DistributedQueue } from './distributed-queue.js';
import { resolveQueueOptions, type DistributedQueueOptions } from './distributed-queue-options.js';

/** What the sharder needs of a shard's queue: Curator's `QueueBase` start and close. */
export interface ShardQueue {
  /** Starts the queue (creates its node); given the sharder's signal, which close() aborts. */
  start(options?: SignalOptions): Promise<void>;
  /** Stops the queue; the sharder's close() waits for it. */
  close(): Promise<void>;
}

/**
 * Makes the queue of one shard (Curator's `QueueAllocator.allocateQueue`): called once per
 * shard path this sharder learns, synchronously; the sharder starts and closes what it returns.
 */
export type QueueAllocator<Q extends ShardQueue> = (
  client: FrameworkClient,
  shardPath: string,
) => Q;

/** The sharding policies (Curator's `QueueSharderPolicies`). */
export interface QueueSharderPolicies {
  /**
   * A shard holding this many items or more makes the leader add a shard; a shard falls out of
   * the preferred set at it, and comes back at half of it or less. Default: 10,000 (Curator's).
   */
  readonly newQueueThreshold?: number | undefined;
  /** How often every sharder lists the shards and their sizes. Default: 30,000 (Curator's). */
  readonly thresholdCheckMs?: number | undefined;
  /** The leader adds no shard once this sharder knows this many. Default: 10 (Curator's). */
  readonly maxQueues?: number | undefined;
  /**
   * Shards a sharder creates when it starts on a path that has none (beyond Curator, which
   * always creates one). Default: 1.
   */
  readonly numberOfQueues?: number | undefined;
}

/** Options of {@link QueueSharder}. */
export interface QueueSharderOptions<T, Q extends ShardQueue> {
  /** The sharding policies. Default: Curator's (10,000 items, 30 s, 10 shards, 1 to start). */
  readonly policies?: QueueSharderPolicies | undefined;
  /**
   * Makes each shard's queue. Default: a {@link DistributedQueue} with {@link queueOptions}.
   * Give one for a priority, delay or id queue, or for safe mode (a lock path per shard).
   */
  readonly queueAllocator?: QueueAllocator<Q> | undefined;
  /**
   * The options of the default allocator's DistributedQueues (serializer, consumer, bounds,
   * ...). Not `lockPath` nor `deadLetterPath`: two queues must not share one; give a
   * `queueAllocator` for those. Not with `queueAllocator`. Default: none (a queue of Buffers
   * that only produces).
   */
  readonly queueOptions?: DistributedQueueOptions<T> | undefined;
}

/** The policies with defaults applied. */
export interface ResolvedPolicies {
  readonly newQueueThreshold: number;
  readonly thresholdCheckMs: number;
  readonly maxQueues: number;
  readonly numberOfQueues: number;
}

/** Items in one shard at which the leader adds a shard by default, as Curator's `QueueSharderPolicies`. */
export const DEFAULT_QUEUE_THRESHOLD = 10_000;
/** How often a sharder checks its shards by default, as Curator's `QueueSharderPolicies`. */
export const DEFAULT_THRESHOLD_CHECK_MS = 30_000;
/** The most shards a queue path gets by default, as Curator's `QueueSharderPolicies`. */
export const DEFAULT_MAX_QUEUES = 10;

/** The longest a timer may wait in Node (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** The options checked, with the defaults applied; InvalidArgumentError before anything is sent. */
export function resolveSharderOptions<T, Q extends ShardQueue>(
  queuePath: string,
  leaderPath: string,
  options: QueueSharderOptions<T, Q>,
): { policies: ResolvedPolicies; allocator: QueueAllocator<Q> } {
  validatePath(queuePath, { allowRoot: false });
  validatePath(leaderPath, { allowRoot: false });
  const inside = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
  if (inside(leaderPath, queuePath) || inside(queuePath, leaderPath)) {
    throw new InvalidArgumentError(
      `leaderPath ${leaderPath} must be apart from the queue path ${queuePath} (neither inside ` +
        `the other): every child of the queue path is a shard`,
      { path: leaderPath },
    );
  }
  checkRecipeOptions('QueueSharder', options, ['policies', 'queueAllocator', 'queueOptions']);
  const { queueAllocator, queueOptions } = options;
  return {
    policies: resolvePolicies(options.policies),
    allocator:
      queueAllocator === undefined
        ? (defaultAllocator(queuePath, queueOptions ?? {}) as unknown as QueueAllocator<Q>)
        : checkedAllocator(queueAllocator, queueOptions),
  };
}

function resolvePolicies(policies: QueueSharderPolicies | undefined): ResolvedPolicies {
  checkRecipeOptions('QueueSharder policies', policies, [
    'newQueueThreshold',
    'thresholdCheckMs',
    'maxQueues',
    'numberOfQueues',
  ]);
  const resolved = {
    newQueueThreshold: positiveIntegerOption(
      'newQueueThreshold',
      policies?.newQueueThreshold,
      DEFAULT_QUEUE_THRESHOLD,
    ),
    thresholdCheckMs: positiveIntegerOption(
      'thresholdCheckMs',
      policies?.thresholdCheckMs,
      DEFAULT_THRESHOLD_CHECK_MS,
    ),
    maxQueues: positiveIntegerOption('maxQueues', policies?.maxQueues, DEFAULT_MAX_QUEUES),
    numberOfQueues: positiveIntegerOption('numberOfQueues', policies?.numberOfQueues, 1),
  };
  if (resolved.thresholdCheckMs > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      `thresholdCheckMs must be at most ${MAX_TIMER_MS}; got ${resolved.thresholdCheckMs}`,
    );
  }
  if (resolved.numberOfQueues > resolved.maxQueues) {
    throw new InvalidArgumentError(
      `numberOfQueues (${resolved.numberOfQueues}) must not exceed maxQueues (${resolved.maxQueues})`,
    );
  }
  return resolved;
}

function checkedAllocator<Q extends ShardQueue>(
  allocator: unknown,
  queueOptions: unknown,
): QueueAllocator<Q> {
  checkFunction('queueAllocator', allocator);
  if (queueOptions !== undefined) {
    throw new InvalidArgumentError(
      'queueOptions are for the default allocator: with a queueAllocator, give the options to ' +
        'the queues it makes',
    );
  }
  return allocator as QueueAllocator<Q>;
}

/** A DistributedQueue per shard, with the options checked once, now. */
function defaultAllocator<T>(
  queuePath: string,
  queueOptions: DistributedQueueOptions<T>,
): QueueAllocator<DistributedQueue<T>> {
  if (typeof queueOptions !== 'object' || queueOptions === null) {
    throw new InvalidArgumentError(
      `queueOptions must be an object; got ${describeValue(queueOptions)}`,
    );
  }
  for (const shared of ['lockPath', 'deadLetterPath'] as const) {
    if (queueOptions[shared] !== undefined) {
      throw new InvalidArgumentError(
        `queueOptions.${shared} would be shared by every shard's queue: give a queueAllocator ` +
          `that makes one ${shared} per shard`,
      );
    }
  }
  // What the DistributedQueue constructor would refuse, refused now, for a shard-like path.
  checkRecipeOptions('QueueSharder queueOptions', queueOptions, [
    'serializer',
    'consumer',
    'maxItems',
    'hardMaxItems',
    'concurrency',
    'prefetch',
    'closeTimeoutMs',
  ]);
  resolveQueueOptions(`${queuePath}/queue-shard`, queueOptions);
  return (client, shardPath) => new DistributedQueue(client, shardPath, queueOptions);
}
