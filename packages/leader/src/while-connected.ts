import { isConnectedState, type FrameworkClient } from '@zkrecipes/framework';
import type { Subscription } from 'rxjs';

/**
 * Waits for `promise` only while the client is connected: resolves when it settles (whatever
 * its outcome; the caller handles that on the promise itself), or at once when the client is
 * not connected, loses its connection or closes first. For work that ends on its own once the
 * connection is back (a guaranteed delete, an ephemeral node's session), so that a close never
 * waits out an outage.
 */
export function whileConnected(client: FrameworkClient, promise: Promise<unknown>): Promise<void> {
  if (!client.isConnected) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let settled = false;
    // Filled in below; `done` may run before that (the replayed state is not a connected one).
    const held: { subscription?: Subscription } = {};
    const done = (): void => {
      settled = true;
      held.subscription?.unsubscribe();
      resolve();
    };
    // The state stream replays the current state and completes when the client closes.
    const subscription = client.connectionStates.subscribe({
      next: (state) => {
        if (!isConnectedState(state)) done();
      },
      complete: done,
    });
    if (settled) subscription.unsubscribe();
    else held.subscription = subscription;
    promise.then(done, done);
  });
}
