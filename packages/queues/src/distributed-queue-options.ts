// The options of DistributedQueue: their documentation, defaults and checks, kept apart from
// the class so it reads as behaviour.
import { InvalidArgumentError, validatePath, validateTimeoutMs } from '@zkrecipes/framework';
import { checkFunction, describeValue } from '@zkrecipes/framework/recipe-support';
import { ErrorMode } from './error-mode.js';
import { DEFAULT_HARD_MAX_ITEMS } from './put-limiter.js';
import type { QueueConsumer } from './queue-consumption.js';
import { bytesSerializer, type QueueSerializer } from './queue-serializer.js';
import { checkWholeNumber } from './check-queue-input.js';

/** Options of {@link DistributedQueue}. */
export interface DistributedQueueOptions<T> {
  /** Turns items into bytes and back. Default: {@link bytesSerializer} (items are Buffers). */
  readonly serializer?: QueueSerializer<T> | undefined;
  /**
   * Called with every item taken once started (Curator's `QueueConsumer`). Default: none; the
   * queue then only produces, unless you iterate {@link DistributedQueue.items}.
   */
  readonly consumer?: QueueConsumer<T> | undefined;
  /**
   * Safe mode (Curator's `lockPath`): an item is locked under this path while its consumer runs
   * and removed only after it succeeded; a consumer that fails or dies leaves it to others.
   * Must not be the queue's path or inside it (nor the other way round). Default: none, an item
   * is removed as it is taken (lost if its consumer then fails).
   */
  readonly lockPath?: string | undefined;
  /** Safe mode only: what a failing consumer does to its item. Default: `ErrorMode.REQUEUE`. */
  readonly errorMode?: ErrorMode | undefined;
  /**
   * Bound the queue (Curator's `maxItems`): a put on a full queue waits for room, up to its
   * `timeoutMs`. Approximate, like Curator's: producers count their own puts between listings.
   * Default: none.
   */
  readonly maxItems?: number | undefined;
  /**
   * A put on a queue of this many nodes fails at once with QueueFullError: a longer child list
   * passes ZooKeeper's 1 MB packet limit (Java clients cannot list it) and slows every server.
   * Default: 50,000.
   */
  readonly hardMaxItems?: number | undefined;
  /** Consumer calls in flight at once; with 1 items reach the consumer in queue order. Default: 1. */
  readonly concurrency?: number | undefined;
  /** How many items' data is read ahead of the consumer. Default: 8. */
  readonly prefetch?: number | undefined;
  /**
   * How long close() waits for puts and consumer calls in flight; items still held then are
   * handed back unprocessed (safe mode). Default: 5000 (Curator's finalFlushTime).
   */
  readonly closeTimeoutMs?: number | undefined;
  /**
   * Where items the serializer cannot read go (a node under this path keeps the unreadable
   * node's name and bytes), instead of being deleted as Curator deletes them. Use it in
   * production: a consumer deployed with the wrong serializer then parks the items for a look
   * and a replay, rather than destroying every one it takes. Must be apart from the queue's
   * path and the lock path. Default: none (deleted, as in Curator, and reported as `corrupt`).
   */
  readonly deadLetterPath?: string | undefined;
}

/** The options with defaults applied, all checked. */
export interface ResolvedQueueOptions<T> {
  readonly lockPath: string | undefined;
  readonly serializer: QueueSerializer<T>;
  readonly consumer: QueueConsumer<T> | undefined;
  readonly errorMode: ErrorMode;
  readonly maxItems: number | undefined;
  readonly hardMaxItems: number;
  readonly concurrency: number;
  readonly prefetch: number;
  readonly closeTimeoutMs: number;
  readonly deadLetterPath: string | undefined;
}

/** Checks the path and options (before anything is sent) and applies the defaults. */
export function resolveQueueOptions<T>(
  queuePath: string,
  options: DistributedQueueOptions<T>,
): ResolvedQueueOptions<T> {
  validatePath(queuePath, { allowRoot: false });
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(`options must be an object; got ${describeValue(options)}`);
  }
  const lockPath = checkLockPath(queuePath, options.lockPath);
  const deadLetterPath = checkApartPath('deadLetterPath', queuePath, options.deadLetterPath);
  if (deadLetterPath !== undefined && lockPath !== undefined) {
    checkApartPath('deadLetterPath', lockPath, deadLetterPath);
  }
  const {
    serializer = bytesSerializer as unknown as QueueSerializer<T>,
    consumer,
    errorMode = ErrorMode.REQUEUE,
    maxItems,
    hardMaxItems = DEFAULT_HARD_MAX_ITEMS,
    concurrency = 1,
    prefetch = 8,
    closeTimeoutMs = 5000,
  } = options;
  if (typeof serializer?.serialize !== 'function' || typeof serializer.deserialize !== 'function') {
    throw new InvalidArgumentError('serializer must have serialize() and deserialize() methods');
  }
  if (consumer !== undefined) checkFunction('consumer', consumer);
  if (errorMode !== ErrorMode.REQUEUE && errorMode !== ErrorMode.DELETE) {
    throw new InvalidArgumentError(
      `errorMode must be 'REQUEUE' or 'DELETE'; got ${describeValue(errorMode)}`,
    );
  }
  if (options.errorMode !== undefined && lockPath === undefined) {
    throw new InvalidArgumentError(
      'errorMode needs a lockPath: without safe mode an item is gone before its consumer runs',
    );
  }
  checkWholeNumber('hardMaxItems', hardMaxItems, 1, Number.MAX_SAFE_INTEGER);
  if (maxItems !== undefined) checkWholeNumber('maxItems', maxItems, 1, hardMaxItems);
  checkWholeNumber('concurrency', concurrency, 1, 1000);
  checkWholeNumber('prefetch', prefetch, 1, 1000);
  validateTimeoutMs('closeTimeoutMs', closeTimeoutMs);
  return {
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
  };
}

/** A path option that must be apart from `other` (neither inside the other). */
function checkApartPath(name: string, other: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new InvalidArgumentError(`${name} must be a string; got ${describeValue(value)}`);
  }
  validatePath(value, { allowRoot: false });
  const inside = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
  if (inside(value, other) || inside(other, value)) {
    throw new InvalidArgumentError(`${name} ${value} must be apart from ${other}`, {
      path: value,
    });
  }
  return value;
}

/** The lock path, checked: a valid path apart from the queue's. */
function checkLockPath(queuePath: string, lockPath: unknown): string | undefined {
  if (lockPath === undefined) return undefined;
  if (typeof lockPath !== 'string') {
    throw new InvalidArgumentError(`lockPath must be a string; got ${describeValue(lockPath)}`);
  }
  validatePath(lockPath, { allowRoot: false });
  const inside = (a: string, b: string): boolean => a === b || a.startsWith(`${b}/`);
  if (inside(lockPath, queuePath) || inside(queuePath, lockPath)) {
    throw new InvalidArgumentError(
      `lockPath ${lockPath} must be apart from the queue path ${queuePath} (neither inside the ` +
        `other): lock nodes in the queue would be taken for items`,
      { path: lockPath },
    );
  }
  return lockPath;
}
