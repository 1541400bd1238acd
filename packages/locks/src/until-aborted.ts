// Two small waits of the locks, on the framework's WakeWait: a sleep and a race against a
// signal, each cheaper than an AbortSignal.any or a promise race on the hot path.
import { WakeWait } from '@zkrecipes/framework/recipe-support';

/** Sleeps `ms`, rejecting with `signal.reason` if the signal aborts first. */
export async function sleepUnlessAborted(
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const wait = new WakeWait();
  const timer = setTimeout(wait.wake, ms);
  try {
    await wait.wait({ signal });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Settles as `work` does, or rejects with `signal.reason` once `signal` aborts first; the work
 * itself goes on (its late outcome is dropped). Costs a listener on `signal`, where handing the
 * signal to a framework operation would combine it with the client's own.
 */
export async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal !== undefined) {
    const wait = new WakeWait();
    work.then(wait.wake, wait.wake);
    await wait.wait({ signal });
  }
  return work;
}
