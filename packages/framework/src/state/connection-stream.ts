// The one place recipes learn about their client's connection: its states (as the client's own
// listeners hear them), the losses that may have taken what a session held (an epoch that
// grows at each), a signal per connection, and the close. One per client, made with it and
// fed by the same state machine as `client.on('stateChanged')`, at the same point (behind the
// replies read before the event, see EventDelivery), so a recipe hears a state in the order it
// did when it subscribed to the client itself.
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Observable } from 'rxjs';
import { ClosedError, ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import { subscribeStateListener, type StateChangedListener } from './subscribe-state-listener.js';
import type { FirstConnection } from './first-connection.js';
import {
  ConnectionState,
  isConnectedState,
  isErrorState,
  type ConnectionStateChange,
  type ErrorPolicy,
} from './connection-state.js';
import { onAbort } from '../async/on-abort.js';

/** What made a hold doubtful: the connection state, or the client's close. */
export type LossCause = 'SUSPENDED' | 'LOST' | 'CLOSED';

/** What a {@link ConnectionStream} is made from (the client's connection machinery). */
export interface ConnectionStreamSources {
  /** The state machine's changes, published after EventDelivery (wire order). */
  readonly changes: Observable<ConnectionStateChange>;
  /** The current state; undefined before the first connection and after close. */
  readonly currentState: () => ConnectionState | undefined;
  /** True while a connection is up and proven. */
  readonly isConnected: () => boolean;
  /** Which states make held nodes doubtful: SUSPENDED and LOST ('standard') or LOST only. */
  readonly errorPolicy: ErrorPolicy;
  /** See `FrameworkClient.validUntilMs`. */
  readonly validUntilMs: () => number;
  /** The client's close signal: aborted as close() begins, before the session is gone. */
  readonly closing: AbortSignal;
  /** Where a throwing listener goes (the unhandled-errors stream). */
  readonly report: (error: unknown, context: string) => void;
  /** The wait for the client's first connection. */
  readonly firstConnection: FirstConnection;
}

/**
 * Follows one client's connection and counts the moments its error policy says held nodes may
 * be gone (SUSPENDED, READ_ONLY and LOST under 'standard', LOST only under 'session', and the
 * close).
 * Listeners and signals are made only when asked for: reading the epoch costs nothing.
 */
export class ConnectionStream {
  readonly #sources: ConnectionStreamSources;
  readonly #losses = new Set<(cause: LossCause) => void>();
  readonly #changes = new Set<(state: ConnectionState) => void>();
  readonly #closed = new AbortController();
  #epoch = 0;
  #lastCause: LossCause | undefined;
  /** Aborts when the current connection goes; made on first use while connected. */
  #connection: AbortController | undefined;

  constructor(sources: ConnectionStreamSources) {
    this.#sources = sources;
    // Every waiting recipe call of this client listens to it; dozens at once are normal.
    setMaxListeners(0, this.#closed.signal);
    const onClose = (): void => {
      if (this.#closed.signal.aborted) return;
      this.#dropConnection();
      this.#loss('CLOSED');
      this.#closed.abort(new ClosedError({ detail: 'the client closed' }));
    };
    if (sources.closing.aborted) onClose();
    else onAbort(sources.closing, onClose);
    sources.changes.subscribe({
      next: ({ state }) => {
        if (!isConnectedState(state)) this.#dropConnection();
        if (isErrorState(state, sources.errorPolicy)) this.#loss(lossCauseOf(state));
        for (const listener of [...this.#changes]) {
          try {
            listener(state);
          } catch (error) {
            sources.report(error, 'connection stream listener');
          }
        }
      },
      complete: onClose,
    });
  }

  /** The current state; undefined before the first connection and after close. */
  get state(): ConnectionState | undefined {
    return this.#closed.signal.aborted ? undefined : this.#sources.currentState();
  }

  /** True while a connection is up and proven (and the client is not closed). */
  get isConnected(): boolean {
    return !this.#closed.signal.aborted && this.#sources.isConnected();
  }

  /** True once the client has been connected (see {@link firstConnection}). */
  get wasConnected(): boolean {
    return this.#sources.firstConnection.done;
  }

  /**
   * Waits for the client's first connection, at most connectionTimeoutMs, before a recipe call
   * starts counting its own time (see FirstConnection): rejects with IllegalStateError before
   * start(), ClosedError once closed, `signal.reason`, or the ConnectionLossError that says why
   * no connection came. Resolves at once once the client has been connected.
   */
  firstConnection(signal?: AbortSignal): Promise<void> {
    return this.#sources.firstConnection.wait({ signal });
  }

  /** Which states count as losses. */
  get errorPolicy(): ErrorPolicy {
    return this.#sources.errorPolicy;
  }

  /** Grows by one at every loss; a hold compares it with the value it was confirmed under. */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Aborted (with a ClosedError) as the client's close() begins, before its session and
   * ephemeral nodes are gone, so a holder hears of it before a successor can acquire.
   */
  get closedSignal(): AbortSignal {
    return this.#closed.signal;
  }

  /** See `FrameworkClient.validUntilMs`: until when the session's holds are known to be sound. */
  get validUntilMs(): number {
    return this.#sources.validUntilMs();
  }

  /**
   * The cause if a loss happened after `epoch` was read, or if the client is in an error state
   * (or closed) right now; undefined when a hold confirmed under `epoch` is still sound.
   */
  lossSince(epoch: number): LossCause | undefined {
    if (this.#epoch !== epoch) return this.#lastCause;
    if (this.#closed.signal.aborted) return 'CLOSED';
    const state = this.#sources.currentState();
    if (state !== undefined && isErrorState(state, this.#sources.errorPolicy)) {
      return lossCauseOf(state);
    }
    return undefined;
  }

  /**
   * Until when (a `performance.now()` instant) what this session holds, confirmed under
   * `epoch` (a lock, a lease, leadership), is known to be sound: -Infinity after a loss since
   * then (or in an error state now, or closed), else `validUntilMs`. Computed when read, so it
   * is right on the first line after an event-loop stall: a hold's `validUntil`.
   */
  validUntilSince(epoch: number): number {
    return this.lossSince(epoch) === undefined ? this.validUntilMs : -Infinity;
  }

  /**
   * `performance.now() < validUntilSince(epoch)`: the check every grant makes before it hands
   * out a hold or leadership confirmed under `epoch`. A look at the queue can say "yours" on
   * news read after a stall the client has not noticed yet (a watch event that waited in the
   * socket while the process was frozen and the server expired the session): the answer is no
   * better than the session it came on, and this says whether that session is still proven.
   */
  isValidSince(epoch: number): boolean {
    return performance.now() < this.validUntilSince(epoch);
  }

  /**
   * A signal that aborts (with a ConnectionLossError) when the connection that is up now goes,
   * or the client closes; already aborted when no connection is up. One per connection, shared
   * by every request given it.
   */
  connectionSignal(): AbortSignal {
    if (!this.isConnected) return AbortSignal.abort(notConnected());
    if (this.#connection === undefined) {
      this.#connection = new AbortController();
      // Every look-once call under way on this connection listens to it.
      setMaxListeners(0, this.#connection.signal);
    }
    return this.#connection.signal;
  }

  /** Calls `listener` once, at the next loss; returns the function that cancels it. */
  onNextLoss(listener: (cause: LossCause) => void): () => void {
    this.#losses.add(listener);
    return () => this.#losses.delete(listener);
  }

  /**
   * Calls `listener` synchronously with every state the client publishes from now on (no
   * replay), after the stream's own bookkeeping (epoch, connection signal). For a recipe's
   * internal bookkeeping; a throw goes to `client.unhandledErrors`. Returns the unsubscribe.
   */
  onChange(listener: (state: ConnectionState) => void): () => void {
    this.#changes.add(listener);
    return () => this.#changes.delete(listener);
  }

  /**
   * A Curator-style state listener, delivered exactly as `client.on('stateChanged')` delivers
   * (each call in its own microtask, in subscription order with the client's own listeners,
   * isolated): for recipes that react to states or forward them to their users.
   */
  onState(listener: StateChangedListener): () => void {
    return subscribeStateListener(this.#sources.changes, listener, this.#sources.report);
  }

  #dropConnection(): void {
    this.#connection?.abort(notConnected());
    this.#connection = undefined;
  }

  #loss(cause: LossCause): void {
    this.#epoch++;
    this.#lastCause = cause;
    const listeners = [...this.#losses];
    this.#losses.clear();
    for (const listener of listeners) listener(cause);
  }
}

/** READ_ONLY counts as SUSPENDED: connected, but not where a hold can be kept. */
function lossCauseOf(state: ConnectionState): LossCause {
  return state === ConnectionState.LOST ? 'LOST' : 'SUSPENDED';
}

function notConnected(): ConnectionLossError {
  return new ConnectionLossError({
    detail: 'not connected: a look-once call does not wait for one',
  });
}
