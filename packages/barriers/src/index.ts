// @zkrecipes/barriers: explicit named exports only.
export { DistributedBarrier } from './distributed-barrier.js';
export { DistributedDoubleBarrier } from './distributed-double-barrier.js';
export type { DoubleBarrierPhase } from './distributed-double-barrier.js';
export type { WaitOptions } from './wait-options.js';
