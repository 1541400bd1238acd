// @zkrecipes/locks: explicit named exports only.
export { InterProcessMutex } from './interprocess-mutex.js';
export type { InterProcessMutexOptions } from './interprocess-mutex.js';
export { Revoker, REVOKE_MESSAGE } from './revoker.js';
export type { RevocationListener } from './revocation-watch.js';
export { ReentrantLock } from './reentrant-lock.js';
export type { LockHold, LockHoldJson, MutexHold } from './lock-hold.js';
export { InterProcessReadWriteLock, ReadLock, WriteLock } from './interprocess-read-write-lock.js';
export type {
  InterProcessReadWriteLockOptions,
  ReadWriteLockHalfOptions,
} from './interprocess-read-write-lock.js';
export { InterProcessSemaphoreV2 } from './interprocess-semaphore-v2.js';
export type { InterProcessSemaphoreV2Options } from './interprocess-semaphore-v2.js';
export type { SharedCountReader } from './shared-count-reader.js';
export { Lease } from './lease.js';
export { InterProcessSemaphoreMutex } from './interprocess-semaphore-mutex.js';
export { InterProcessMultiLock } from './interprocess-multi-lock.js';
export type { AcquireOptions, InterProcessLock } from './interprocess-lock.js';
export { runInFlow } from './flow-scope.js';
export type { QueueObserver } from './lock-internals.js';
export { FencingGuard } from './fencing-guard.js';
export type { FencingTokenInput } from './fencing-guard.js';
export { IllegalMonitorStateError, isIllegalMonitorState } from './illegal-monitor-state-error.js';
export { LockName, lockSequence, sortParticipants } from './lock-node-names.js';
