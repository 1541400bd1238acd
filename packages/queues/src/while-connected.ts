// Shutdown waits for work that a live connection finishes in a round trip (a claim or a put in
// flight, the end of a lease), but not for work that waits for a connection: that goes on in
// the background (or is dropped), so close() is prompt with the server gone.
import { type FrameworkClient, isConnectedState } from '@zkrecipes/framework';

/**
 * Resolves `true` once `work` has settled, `false` as soon as the client is not connected
 * (at once if it is not now), closes, or `timeoutMs` passes. Never rejects.
 */
export function whileConnected(
  client: FrameworkClient,
  work: Promise<unknown>,
  timeoutMs?: number,
): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const held: { unsubscribe?: () => void } = {};
    let done = false;
    const finish = (settled: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      held.unsubscribe?.();
      resolve(settled);
    };
    if (!client.isConnected) {
      finish(false);
      return;
    }
    // Replays the current state; completes when the client closes.
    const subscription = client.connectionStates.subscribe({
      next: (state) => {
        if (!isConnectedState(state)) finish(false);
      },
      complete: () => finish(false),
    });
    if (done) subscription.unsubscribe();
    else held.unsubscribe = () => subscription.unsubscribe();
    if (timeoutMs !== undefined) timer = setTimeout(() => finish(false), timeoutMs);
    work.then(
      () => finish(true),
      () => finish(true),
    );
  });
}
