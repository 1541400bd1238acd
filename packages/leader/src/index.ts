// @zkrecipes/leader: explicit named exports only.
export { LeaderSelector } from './leader-selector.js';
export type {
  LeaderSelectorListener,
  LeaderSelectorOptions,
  TakeLeadership,
} from './leader-selector-options.js';
export { LeaderLatch } from './leader-latch.js';
export type {
  LeaderLatchAwaitOptions,
  LeaderLatchCloseOptions,
  LeaderLatchOptions,
} from './leader-latch-options.js';
export type { Leadership } from './leadership.js';
export { LeaderState } from './leader-state.js';
export type { LeaderError, LeadershipEvent, LeadershipListener } from './leadership-state.js';
export { DEFAULT_PARTICIPANT_READ_CONCURRENCY, LATCH_NODE_NAME } from './participant.js';
export type { Participant } from './participant.js';
