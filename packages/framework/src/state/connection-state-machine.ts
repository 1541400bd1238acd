import { performance } from 'node:perf_hooks';
import { ReplaySubject, Subject, type Observable, type Subscription } from 'rxjs';
import type { Logger } from '../logging/logger.js';
import type { ConnectionEvent } from '../zk/connection-event.js';
import {
  ConnectionState,
  isConnectedState,
  type ConnectionStateChange,
  type ErrorPolicy,
} from './connection-state.js';
import { lostDeadlineMs, suspendedDeadlineMs } from './session-deadline.js';

export interface ConnectionStateMachineOptions {
  readonly events: Observable<ConnectionEvent>;
  /**
   * Simulated session loss: LOST once negotiated timeout x percent / 100 has passed since the
   * server last heard the session (and the connection is SUSPENDED).
   */
  readonly sessionExpirationPercent: number;
  /** Called when the simulated timer declares the session lost: start a new one. */
  readonly onSimulatedLoss: () => void;
  /** When the server last heard the session (see `ZooKeeperConnection.lastHeardMs`). */
  readonly lastHeardMs: () => number | undefined;
  readonly logger: Logger;
}

/**
 * Turns the connection's low-level events into Curator's states:
 * CONNECTED once, SUSPENDED when the connection is gone or unproven, LOST when the server says
 * the session expired or when SUSPENDED outlasts the session (a partitioned client never hears
 * of its expiry, so it must assume it), RECONNECTED on every return after SUSPENDED or LOST.
 */
export class ConnectionStateMachine {
  readonly #options: ConnectionStateMachineOptions;
  readonly #states = new ReplaySubject<ConnectionState>(1);
  readonly #changes = new Subject<ConnectionStateChange>();
  readonly #subscription: Subscription;
  #state: ConnectionState | undefined;
  #sessionId: bigint | undefined;
  #sessionTimeoutMs = 0;
  #lostTimer: NodeJS.Timeout | undefined;
  /** The session in force was opened by a read-only server (local to it, holding nothing). */
  #readOnlySession = false;
  /** CONNECTED was published: the first read-write connection came. */
  #everReadWrite = false;

  constructor(options: ConnectionStateMachineOptions) {
    this.#options = options;
    this.#subscription = options.events.subscribe({
      next: (event) => this.#onEvent(event),
      complete: () => this.#complete(),
    });
  }

  get state(): ConnectionState | undefined {
    return this.#state;
  }

  /** Replays the current state to late subscribers. */
  get states(): Observable<ConnectionState> {
    return this.#states;
  }

  get changes(): Observable<ConnectionStateChange> {
    return this.#changes;
  }

  /** Stops timers and completes the streams (on client close). */
  close(): void {
    this.#subscription.unsubscribe();
    this.#complete();
  }

  #onEvent(event: ConnectionEvent): void {
    switch (event.type) {
      case 'connected':
        this.#onConnected(event);
        return;
      case 'disconnected':
        this.#onDisconnected(event.reason);
        return;
      case 'expired':
        this.#cancelLostTimer();
        if (this.#state !== ConnectionState.LOST) this.#publish(ConnectionState.LOST, false);
        return;
      case 'authFailed':
        // Terminal: whatever the session held is gone for good, and nothing reconnects.
        this.#cancelLostTimer();
        if (this.#state !== ConnectionState.LOST) {
          this.#publish(ConnectionState.LOST, false, 'authentication failed');
        }
        return;
    }
  }

  /**
   * READ_ONLY is what Curator makes it: a state of its own, never CONNECTED (the first
   * read-write connection is CONNECTED, whenever it comes), left for SUSPENDED when the
   * connection goes. A read-only server's session is local to it, so the move to a read-write
   * server is always a new session: RECONNECTED (`newSession`), without a LOST for a session
   * that could hold nothing.
   */
  #onConnected(event: Extract<ConnectionEvent, { type: 'connected' }>): void {
    const { sessionId, sessionTimeoutMs, newSession, readOnly } = event;
    this.#cancelLostTimer();
    this.#sessionTimeoutMs = sessionTimeoutMs;
    const previous = this.#state;
    const readOnlySessionBefore = this.#readOnlySession;
    this.#sessionId = sessionId;
    this.#readOnlySession = readOnly;
    if (readOnly) {
      if (previous === ConnectionState.READ_ONLY) return;
      if (newSession && previous !== undefined && !readOnlySessionBefore) {
        if (previous !== ConnectionState.LOST) this.#publish(ConnectionState.LOST, false);
      }
      this.#publish(ConnectionState.READ_ONLY, newSession);
      return;
    }
    if (!this.#everReadWrite) {
      this.#everReadWrite = true;
      this.#publish(ConnectionState.CONNECTED, false);
      return;
    }
    if (previous !== ConnectionState.READ_ONLY && isConnectedState(previous!)) return;
    // A new session means the old one is gone, whether or not we had said so yet.
    if (newSession && previous !== ConnectionState.LOST && !readOnlySessionBefore) {
      this.#publish(ConnectionState.LOST, false);
    }
    this.#publish(ConnectionState.RECONNECTED, newSession || previous === ConnectionState.LOST);
  }

  #onDisconnected(reason: string): void {
    if (this.#state === undefined || !isConnectedState(this.#state)) return;
    this.#publish(ConnectionState.SUSPENDED, false, reason);
    // Counted from when the server last heard us, not from now: see session-deadline.ts.
    const percent = this.#options.sessionExpirationPercent;
    const heardMs = this.#options.lastHeardMs() ?? performance.now();
    const lostAtMs = lostDeadlineMs(heardMs, this.#sessionTimeoutMs, percent);
    const declare = (): void => {
      this.#lostTimer = undefined;
      if (this.#state !== ConnectionState.SUSPENDED) return;
      const silentMs = Math.round(performance.now() - heardMs);
      this.#publish(
        ConnectionState.LOST,
        false,
        `the server last heard the session ${silentMs} ms ago (${percent}% of the session timeout)`,
      );
      this.#options.onSimulatedLoss();
    };
    const delayMs = lostAtMs - performance.now();
    if (delayMs <= 0) declare();
    else this.#lostTimer = setTimeout(declare, delayMs);
  }

  /**
   * Until when (`performance.now()`) a hold under `errorPolicy` is known to be sound, judged
   * from the send time of the last request the server answered: under 'session', the instant
   * this machine declares LOST; under 'standard', the instant a silent connection is declared
   * dead. -Infinity when already in an error state or without a session.
   */
  validUntilMs(errorPolicy: ErrorPolicy, connected: boolean): number {
    const heardMs = this.#options.lastHeardMs();
    const state = this.#state;
    if (heardMs === undefined || state === undefined || this.#sessionTimeoutMs <= 0) {
      return -Infinity;
    }
    // A read-only server's session holds nothing: no lock, lease or leadership is sound in it.
    if (state === ConnectionState.READ_ONLY || this.#readOnlySession) return -Infinity;
    if (errorPolicy === 'standard') {
      if (!connected || !isConnectedState(state)) return -Infinity;
      return suspendedDeadlineMs(heardMs, this.#sessionTimeoutMs);
    }
    if (state === ConnectionState.LOST) return -Infinity;
    return lostDeadlineMs(heardMs, this.#sessionTimeoutMs, this.#options.sessionExpirationPercent);
  }

  #publish(state: ConnectionState, newSession: boolean, reason?: string): void {
    this.#state = state;
    const meta = reason === undefined ? {} : { reason };
    this.#options.logger.info(`connection state ${state}`, meta);
    this.#changes.next({ state, sessionId: this.#sessionId, newSession });
    this.#states.next(state);
  }

  #cancelLostTimer(): void {
    clearTimeout(this.#lostTimer);
    this.#lostTimer = undefined;
  }

  #complete(): void {
    this.#cancelLostTimer();
    this.#changes.complete();
    this.#states.complete();
  }
}
