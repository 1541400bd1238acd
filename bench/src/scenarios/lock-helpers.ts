import type { InterProcessLock } from '@zkrecipes/locks';
import { HANG_GUARD_MS } from '../bench-context.js';

/** acquire() bounded by the hang guard (the peer's `acquire(60, SECONDS)`). */
export async function acquireOrFail(lock: InterProcessLock): Promise<void> {
  if (!(await lock.acquire(HANG_GUARD_MS))) {
    throw new Error(`lock not acquired within ${HANG_GUARD_MS} ms`);
  }
}
