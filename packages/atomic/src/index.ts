// @zkrecipes/atomic: explicit named exports only.
export { SharedValue } from './shared-value.js';
export type {
  SharedValueListener,
  SharedValueOptions,
  SharedValueStateListener,
} from './shared-value.js';
export { SharedCount } from './shared-count.js';
export type { SharedCountListener } from './shared-count.js';
export type { VersionedValue } from './versioned-value.js';
export type { CallOptions } from './call-options.js';
export { CorruptedValueError, isCorruptedValue } from './corrupted-value-error.js';
export { DistributedAtomicValue } from './distributed-atomic-value.js';
export type { DistributedAtomicOptions } from './distributed-atomic-value.js';
export type { DistributedAtomicNumber } from './distributed-atomic-number.js';
export { DistributedAtomicLong } from './distributed-atomic-long.js';
export { DistributedAtomicInteger } from './distributed-atomic-integer.js';
export { CachedAtomicLong } from './cached-atomic-long.js';
export type { AtomicStats, AtomicValue } from './atomic-value.js';
export type { PromotedToLock } from './promoted-to-lock.js';
