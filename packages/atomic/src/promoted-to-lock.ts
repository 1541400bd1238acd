import {
  InvalidArgumentError,
  type RetryPolicy,
  RetryNTimes,
  validatePath,
  validateTimeoutMs,
} from '@zkrecipes/framework';
import {
  checkOptionsObject,
  checkRecipeOptions,
  checkRetryPolicy,
  describeValue,
} from '@zkrecipes/framework/recipe-support';

/**
 * Promotion to a mutex (Curator's `PromotedToLock`): when the optimistic attempts give up, the
 * operation takes an `InterProcessMutex` at `lockPath` and tries again under it. Every
 * DistributedAtomicValue/Long of one counter should use the same lock path (a Java service's
 * `PromotedToLock.builder().lockPath(...)` included: the mutex is Curator's, node for node).
 */
export interface PromotedToLock {
  /** The mutex's path. Required. */
  readonly lockPath: string;
  /**
   * Decides how often the attempt is repeated while holding the mutex (each failure is a
   * "contended" error to it). Default: no repeat (Curator's `RetryNTimes(0, 0)`).
   */
  readonly retryPolicy?: RetryPolicy | undefined;
  /**
   * How long to wait for the mutex; the operation fails (`succeeded: false`) when it is not
   * had in time. Default: wait as long as it takes (bounded by the call's signal).
   */
  readonly maxLockTimeMs?: number | undefined;
}

/** @internal The checked promotion. */
export interface CheckedPromotion {
  readonly lockPath: string;
  readonly retryPolicy: RetryPolicy;
  readonly maxLockTimeMs: number | undefined;
}

/** @internal Checks a {@link PromotedToLock} (undefined: no promotion). */
export function checkPromotion(promotion: unknown): CheckedPromotion | undefined {
  if (promotion === undefined) return undefined;
  checkOptionsObject(promotion, 'promotedToLock');
  checkRecipeOptions('promotedToLock', promotion, ['lockPath', 'retryPolicy', 'maxLockTimeMs']);
  const { lockPath, retryPolicy, maxLockTimeMs } = promotion as Partial<
    Record<keyof PromotedToLock, unknown>
  >;
  if (typeof lockPath !== 'string') {
    throw new InvalidArgumentError(
      `promotedToLock.lockPath must be a path; got ${describeValue(lockPath)}`,
    );
  }
  validatePath(lockPath);
  if (maxLockTimeMs !== undefined) validateTimeoutMs('promotedToLock.maxLockTimeMs', maxLockTimeMs);
  return {
    lockPath,
    retryPolicy:
      retryPolicy === undefined
        ? new RetryNTimes({ n: 0, sleepBetweenRetriesMs: 0 })
        : checkRetryPolicy('promotedToLock.retryPolicy', retryPolicy),
    maxLockTimeMs,
  };
}
