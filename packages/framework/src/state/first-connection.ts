/**
 * The wait for a client's first connection. Until it, nothing is known about the ensemble: a
 * call with a time limit (a lock's `acquire(0)` included) that counted its time from the call
 * would answer about the handshake, not about what it asked. Such calls wait here first,
 * bounded by `connectionTimeoutMs` and their signal, and count their own time from the first
 * connection, as Curator's do (its operations block until connected). Once the client has been
 * connected, an outage is answered by each call's own limits, never by this wait.
 */
import type { Observable } from 'rxjs';
import { ClosedError, IllegalStateError } from '../errors/zookeeper-error-classes.js';
import { isConnectedState, type ConnectionStateChange } from './connection-state.js';
import { onAbort } from '../async/on-abort.js';

/** What a {@link FirstConnection} follows (wired by createFramework). */
export interface FirstConnectionSources {
  readonly changes: Observable<ConnectionStateChange>;
  /** The client's close signal. */
  readonly closing: AbortSignal;
  readonly started: () => boolean;
  /** The default bound of a wait. */
  readonly connectionTimeoutMs: number;
  /** What a wait that ran out rejects with: the servers tried and the last cause. */
  readonly notConnected: (waitedMs: number) => Error;
  /**
   * Set once the server refused the credentials, or (before a first connection) every server
   * failed in TLS: no connection will come.
   */
  readonly authFailure: () => Error | undefined;
  /** Emits when a connection attempt failed: waiters look at `authFailure` again. */
  readonly attemptFailures?: Observable<unknown>;
}

/** Options of {@link FirstConnection.wait}. */
export interface FirstConnectionWaitOptions {
  /** Default: the client's connectionTimeoutMs. */
  readonly timeoutMs?: number | undefined;
  /** Aborting ends the wait with `signal.reason`. Default: none. */
  readonly signal?: AbortSignal | undefined;
}

/** One client's wait for its first connection (see the comment at the top of this file). */
export class FirstConnection {
  readonly #sources: FirstConnectionSources;
  readonly #wakes = new Set<() => void>();
  #done = false;

  constructor(sources: FirstConnectionSources) {
    this.#sources = sources;
    sources.changes.subscribe(({ state }) => {
      if (isConnectedState(state)) this.#done = true;
      // A connection, or a LOST that may be the credentials' refusal: waiters look again.
      this.#wakeAll();
    });
    sources.attemptFailures?.subscribe(() => {
      if (!this.#done) this.#wakeAll();
    });
    onAbort(sources.closing, () => this.#wakeAll());
  }

  /** True once the client has been connected. */
  get done(): boolean {
    return this.#done;
  }

  /**
   * Resolves once the client has been connected (at once if it was). Rejects with an
   * IllegalStateError before start(), a ClosedError once closed, the AuthFailedError when the
   * server refused the credentials, `signal.reason` when `signal` aborts, and a
   * ConnectionLossError (its `cause` the last attempt's) when `timeoutMs` passes first.
   */
  wait(options: FirstConnectionWaitOptions = {}): Promise<void> {
    if (this.#done) return Promise.resolve();
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.#sources.connectionTimeoutMs;
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.#wakes.delete(look);
        stopListening?.();
        if (error === undefined) resolve();
        else reject(error);
      };
      const look = (): void => {
        const error = this.#blocker();
        if (error !== undefined) finish(error);
        else if (this.#done) finish();
      };
      const timer = setTimeout(() => finish(this.#sources.notConnected(timeoutMs)), timeoutMs);
      this.#wakes.add(look);
      const stopListening = signal && onAbort(signal, () => finish(signal.reason as Error));
      if (signal?.aborted === true) finish(signal.reason as Error);
      else look();
    });
  }

  /** Why no connection can come for a waiter now; undefined while one still may. */
  #blocker(): Error | undefined {
    const sources = this.#sources;
    if (sources.closing.aborted) return new ClosedError({ detail: 'the client closed' });
    if (!sources.started()) {
      return new IllegalStateError('the client is not started: call start() first');
    }
    return sources.authFailure();
  }

  #wakeAll(): void {
    for (const wake of [...this.#wakes]) wake();
  }
}
