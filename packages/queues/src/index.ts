// @zkrecipes/queues: explicit named exports only.
export { DistributedQueue } from './distributed-queue.js';
export type { PutOptions, QueueState } from './distributed-queue.js';
export type { DistributedQueueOptions } from './distributed-queue-options.js';
export { DistributedPriorityQueue } from './distributed-priority-queue.js';
export type { DistributedPriorityQueueOptions } from './distributed-priority-queue.js';
export { DistributedDelayQueue } from './distributed-delay-queue.js';
export type { DistributedDelayQueueOptions } from './distributed-delay-queue.js';
export { DistributedIdQueue } from './distributed-id-queue.js';
export type { DistributedIdQueueOptions } from './distributed-id-queue.js';
export { QueueSharder, SHARD_PREFIX } from './queue-sharder.js';
export {
  DEFAULT_MAX_QUEUES,
  DEFAULT_QUEUE_THRESHOLD,
  DEFAULT_THRESHOLD_CHECK_MS,
} from './queue-sharder-options.js';
export type {
  QueueAllocator,
  QueueSharderOptions,
  QueueSharderPolicies,
  ShardQueue,
} from './queue-sharder-options.js';
export { SimpleDistributedQueue } from './simple-distributed-queue.js';
export type { SimpleDistributedQueueOptions } from './simple-distributed-queue.js';
export type { ConsumeContext, QueueConsumer } from './queue-consumption.js';
export type { QueueEvent, QueueListener } from './queue-events.js';
export { ErrorMode } from './error-mode.js';
export { bytesSerializer, jsonSerializer, stringSerializer } from './queue-serializer.js';
export type { QueueSerializer } from './queue-serializer.js';
export {
  CorruptEnvelopeError,
  decodeEnvelope,
  encodeEnvelope,
  ENVELOPE_VERSION,
  envelopeSize,
} from './item-envelope.js';
export { QueueFullError } from './queue-full-error.js';
export type { QueueFullReason } from './queue-full-error.js';
export { NoSuchElementError } from './no-such-element-error.js';
export { DEFAULT_HARD_MAX_ITEMS } from './put-limiter.js';
export { DISTRIBUTED_QUEUE_PREFIX, SIMPLE_QUEUE_PREFIX } from './queue-node-names.js';
export { PRESENCE_PREFIX } from './lock-safety.js';
export type { WaitOptions } from './check-queue-input.js';
