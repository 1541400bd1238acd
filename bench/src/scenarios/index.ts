import type { Scenario } from '../scenario.js';
import { barrierDouble } from './barrier-double.js';
import { cacheChildren } from './cache-children.js';
import { groupMembership } from './group-membership.js';
import { leaderFailoverClose, leaderFailoverRelinquish } from './leader-failover.js';
import { mutexContended } from './mutex-contended.js';
import { mutexTry0 } from './mutex-try0.js';
import { mutexUncontended } from './mutex-uncontended.js';
import { queueFifo } from './queue-fifo.js';
import { rwlockReaders } from './rwlock-readers.js';
import { EXTRA_SCENARIOS } from './extra.js';

/** The peer's scenarios, in the peer's run order. */
export const PEER_SCENARIOS: readonly Scenario[] = [
  mutexUncontended,
  mutexContended,
  mutexTry0,
  rwlockReaders,
  leaderFailoverRelinquish,
  leaderFailoverClose,
  queueFifo,
  cacheChildren,
  barrierDouble,
  groupMembership,
];

/**
 * Everything, in run order: the peer's, then the extra scale scenarios (named `extra.*`, run
 * only when selected by name or prefix, e.g. `--scenario extra`; never by the default run).
 */
export const SCENARIOS: readonly Scenario[] = [...PEER_SCENARIOS, ...EXTRA_SCENARIOS];
