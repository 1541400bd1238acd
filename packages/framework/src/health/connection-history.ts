import { performance } from 'node:perf_hooks';
import type { Observable } from 'rxjs';
import { ConnectionState, type ConnectionStateChange } from '../state/connection-state.js';

/**
 * What the client's connection went through, counted from its state changes: the numbers
 * behind `client.health()` and the connection metrics. Always on (state changes are rare).
 */
export class ConnectionHistory {
  /** Changes per state, since the client was created. */
  readonly changes: Record<ConnectionState, number> = {
    CONNECTED: 0,
    SUSPENDED: 0,
    RECONNECTED: 0,
    LOST: 0,
    READ_ONLY: 0,
  };
  /** `performance.now()` when the current session was first connected; undefined before. */
  sessionStartedMs: number | undefined;
  /** `performance.now()` of the last state change; undefined before the first. */
  lastChangeMs: number | undefined;
  /** Event-loop stalls long enough to suspect the connection. */
  eventLoopStalls = 0;
  #sessionId: bigint | undefined;

  constructor(changes: Observable<ConnectionStateChange>) {
    changes.subscribe((change) => this.#record(change));
  }

  #record({ state, sessionId }: ConnectionStateChange): void {
    const now = performance.now();
    this.changes[state] += 1;
    this.lastChangeMs = now;
    if (state === ConnectionState.LOST) {
      this.#sessionId = undefined;
      this.sessionStartedMs = undefined;
    } else if (state !== ConnectionState.SUSPENDED && sessionId !== this.#sessionId) {
      this.#sessionId = sessionId;
      this.sessionStartedMs = now;
    }
  }
}
