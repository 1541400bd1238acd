// One subscription per client to its connection states, shared by every hold and lease of that
// client: a hold only remembers the epoch it was confirmed in, and an AbortSignal is made (and
// registered here) only when someone asks for it. An uncontended acquire/release cycle thus
// costs no subscription at all. The same subscription ends each connection's signal, which
// acquire(0) gives its requests so that they never outlive the connection they were sent on.
import { setMaxListeners } from 'node:events';
import {
  ClosedError,
  ConnectionLossError,
  ConnectionState,
  isConnectedState,
  isErrorState,
  SessionExpiredError,
  type FrameworkClient,
} from '@zkrecipes/framework';

/** What made a hold doubtful: the connection state, or the client's close. */
export type LossCause = 'SUSPENDED' | 'LOST' | 'CLOSED';

const watches = new WeakMap<FrameworkClient, ConnectionWatch>();

/**
 * Follows one client's connection states and counts the moments its error policy says held
 * locks may be gone (SUSPENDED and LOST under 'standard', LOST only under 'session', and the
 * client's close).
 */
export class ConnectionWatch {
  readonly #client: FrameworkClient;
  readonly #listeners = new Set<(cause: LossCause) => void>();
  readonly #closed = new AbortController();
  #epoch = 0;
  #lastCause: LossCause | undefined;
  /** Aborts when the current connection goes; made on first use while connected. */
  #connection: AbortController | undefined;

  /** The watch of `client`, made on first use. */
  static of(client: FrameworkClient): ConnectionWatch {
    let watch = watches.get(client);
    if (watch === undefined) {
      watch = new ConnectionWatch(client);
      watches.set(client, watch);
    }
    return watch;
  }

  private constructor(client: FrameworkClient) {
    this.#client = client;
    // Every waiting acquire of this client listens to it; dozens at once are normal.
    setMaxListeners(0, this.#closed.signal);
    const onClose = (): void => {
      if (this.#closed.signal.aborted) return;
      this.#dropConnection();
      this.#loss('CLOSED');
      this.#closed.abort(new ClosedError());
    };
    // closedSignal aborts as close() begins, before the session (and our nodes) are gone, so a
    // holder hears of it before a successor can acquire.
    if (client.closedSignal.aborted) onClose();
    else client.closedSignal.addEventListener('abort', onClose, { once: true });
    client.connectionStates.subscribe({
      next: (state) => {
        if (!isConnectedState(state)) this.#dropConnection();
        if (isErrorState(state, client.errorPolicy)) this.#loss(state as LossCause);
      },
      complete: onClose,
    });
  }

  /** Grows by one at every loss; a hold compares it with the value it was confirmed under. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Aborted once the client has closed. */
  get closedSignal(): AbortSignal {
    return this.#closed.signal;
  }

  /**
   * The cause if a loss happened after `epoch` was read, or if the client is in an error state
   * right now; undefined when a hold confirmed under `epoch` is still sound.
   */
  lossSince(epoch: number): LossCause | undefined {
    if (this.#epoch !== epoch) return this.#lastCause;
    if (this.#closed.signal.aborted) return 'CLOSED';
    const state = this.#client.connectionState;
    if (state !== undefined && isErrorState(state, this.#client.errorPolicy)) {
      return state === ConnectionState.LOST ? 'LOST' : 'SUSPENDED';
    }
    return undefined;
  }

  /** See `FrameworkClient.validUntilMs`: until when the session's holds are known to be sound. */
  get validUntilMs(): number {
    return this.#client.validUntilMs;
  }

  /**
   * A signal that aborts (with a ConnectionLossError) when the connection that is up now goes,
   * or the client closes; already aborted when no connection is up. One per connection, shared
   * by every request given it.
   */
  connectionSignal(): AbortSignal {
    if (!this.#client.isConnected) return AbortSignal.abort(notConnected());
    if (this.#connection === undefined) {
      this.#connection = new AbortController();
      // Every acquire(0) under way on this connection listens to it.
      setMaxListeners(0, this.#connection.signal);
    }
    return this.#connection.signal;
  }

  /** Calls `listener` once, at the next loss; returns the function that cancels it. */
  onNextLoss(listener: (cause: LossCause) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #dropConnection(): void {
    this.#connection?.abort(notConnected());
    this.#connection = undefined;
  }

  #loss(cause: LossCause): void {
    this.#epoch++;
    this.#lastCause = cause;
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) listener(cause);
  }
}

function notConnected(): ConnectionLossError {
  return new ConnectionLossError({ detail: 'not connected: acquire(0) does not wait for one' });
}

/** The abort reason a hold's `lost` signal carries for `cause`. */
export function lossReason(cause: LossCause, path: string): Error {
  switch (cause) {
    case 'SUSPENDED':
      return new ConnectionLossError({
        path,
        detail: 'connection SUSPENDED: the hold may be lost (error policy "standard")',
      });
    case 'LOST':
      return new SessionExpiredError({ path, detail: 'session LOST: the hold is gone' });
    case 'CLOSED':
      return new ClosedError({ path, detail: 'the client closed: the hold is gone' });
  }
}

/**
 * What a hold or lease knows about itself: its `lost` signal (made on first access) and until
 * when it is sound. The signal aborts when a loss happens after the hold was confirmed (or had
 * already happened by the time it is first asked for), and never after `end()`.
 */
export class HoldValidity {
  readonly #watch: ConnectionWatch;
  readonly #epoch: number;
  readonly #path: string;
  #controller: AbortController | undefined;
  #cancel: (() => void) | undefined;
  #ended = false;

  constructor(watch: ConnectionWatch, epoch: number, path: string) {
    this.#watch = watch;
    this.#epoch = epoch;
    this.#path = path;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      const cause = this.#watch.lossSince(this.#epoch);
      if (cause !== undefined) controller.abort(lossReason(cause, this.#path));
      else if (!this.#ended) {
        this.#cancel = this.#watch.onNextLoss((next) => {
          this.#cancel = undefined;
          controller.abort(lossReason(next, this.#path));
        });
      }
    }
    return this.#controller.signal;
  }

  /**
   * -Infinity once the hold ended or a loss happened since it was confirmed; otherwise the
   * client's `validUntilMs`. Computed when read, from the time the server last answered, so it
   * is right on the first line after an event-loop stall, before any timer or event has run.
   */
  get validUntil(): number {
    if (this.#ended || this.#watch.lossSince(this.#epoch) !== undefined) return -Infinity;
    return this.#watch.validUntilMs;
  }

  /** `performance.now() < validUntil`. */
  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  /** The hold ended normally: stop listening (the signal stays as it is). */
  end(): void {
    this.#ended = true;
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
