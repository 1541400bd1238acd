import type { Observable } from 'rxjs';
import type { ConnectionState, ConnectionStateChange } from './connection-state.js';

/**
 * A Curator-style connection state listener (`ConnectionStateListener.stateChanged`). Its
 * return value is ignored, except that a returned promise's rejection is reported like a throw.
 */
export type StateChangedListener = (
  state: ConnectionState,
  change: ConnectionStateChange,
) => unknown;

/**
 * Subscribes `listener` to state changes so that it can never stall or break the client:
 * each call runs in its own microtask (never inside the connection's emitting stack, so a slow
 * or re-entrant listener cannot hold up the state machine or the other listeners), and a throw
 * or rejection goes to `report` (the unhandled-errors stream) instead of propagating.
 *
 * Calls keep the order of the changes. Returns an unsubscribe function; after it is called, no
 * further calls are made, including ones already queued.
 */
export function subscribeStateListener(
  changes: Observable<ConnectionStateChange>,
  listener: StateChangedListener,
  report: (error: unknown, context: string) => void,
): () => void {
  let active = true;
  const deliver = (change: ConnectionStateChange): void => {
    if (!active) return;
    try {
      const result = listener(change.state, change);
      if (isPromiseLike(result)) {
        result.then(undefined, (error: unknown) => report(error, 'stateChanged listener'));
      }
    } catch (error) {
      report(error, 'stateChanged listener');
    }
  };
  const subscription = changes.subscribe({
    next: (change) => queueMicrotask(() => deliver(change)),
  });
  return () => {
    active = false;
    subscription.unsubscribe();
  };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
