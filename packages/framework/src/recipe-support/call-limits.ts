// What one recipe call may spend, made once in the public method and passed down to every
// request and wait of the call: its Deadline (the caller's timeout and signal).
//
// A timeout of 0 means "look once, never wait". A deadline of 0 would abort its own first
// request, and no deadline at all would let an outage that starts mid-call hold it for the whole
// retry policy; so its requests get a LookOnceSignal instead: on a live connection a look takes
// a round trip, and a connection that goes or does not answer in time answers like a timeout.
import type { FrameworkClient } from '../client/framework-client.js';
import { ConnectionLossError } from '../errors/zookeeper-error-classes.js';
import { isConnectedState } from '../state/connection-state.js';
import { connectionStreamOf } from './connection-stream-of.js';
import { Deadline } from './deadline.js';
import { LookOnceSignal } from './look-once-signal.js';
import type { Wake } from './wake.js';
import { onAbort } from '../async/on-abort.js';

/**
 * A recipe call's deadline, and the signal its requests and waits get (barriers and queues
 * share it; a lock's acquire has its own, built on the lock's connection watch).
 */
export class CallLimits implements Disposable {
  /** The call's deadline: the caller's timeout and signal. */
  readonly deadline: Deadline;
  /** The caller's timeout, for messages; undefined without one. */
  readonly timeoutMs: number | undefined;
  readonly #client: FrameworkClient;
  readonly #isLookOnce: boolean;
  /** A look-once call's signal, and the end of its watch on the connection; made when first needed. */
  #lookOnce: { look: LookOnceSignal; unsubscribe: () => void } | undefined;
  /** What {@link onGiveUp} reports when the time runs out, made when first needed. */
  #expiry: DOMException | undefined;

  private constructor(
    client: FrameworkClient,
    timeoutMs: number | undefined,
    signal?: AbortSignal,
  ) {
    this.#client = client;
    this.deadline = Deadline.of({ timeoutMs, signal });
    this.timeoutMs = timeoutMs;
    this.#isLookOnce = timeoutMs === 0;
  }

  /**
   * The limits of a call given `timeoutMs` and `signal`; undefined when given neither (nothing to
   * pay for: no timer, no signal).
   */
  static of(
    client: FrameworkClient,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ): CallLimits | undefined {
    if (timeoutMs === undefined && signal === undefined) return undefined;
    return new CallLimits(client, timeoutMs, signal);
  }

  /** When waiting ends (`performance.now()` clock); for a timeout of 0, at once. */
  get atMs(): number | undefined {
    return this.deadline.atMs;
  }

  /** The caller's own signal: its abort rejects the call with its reason. */
  get callerSignal(): AbortSignal | undefined {
    return this.deadline.callerSignal;
  }

  /**
   * What the call's requests and waits get: the deadline's signal, or for a timeout of 0 a
   * LookOnceSignal (the connection goes or does not answer in time, or the caller aborts).
   */
  get signal(): AbortSignal | undefined {
    if (!this.#isLookOnce) return this.deadline.signal;
    this.#lookOnce ??= this.#lookOnceSignal();
    return this.#lookOnce.look.signal;
  }

  /**
   * Calls `giveUp` with the reason once the call gives up (its time runs out, its caller
   * aborts, a look-once call's connection goes); returns the function that cancels that. For a
   * wait on the hot path: a timer and a listener on the caller's signal cost much less than
   * making {@link signal} (an AbortSignal of its own) for every call.
   */
  onGiveUp(giveUp: (reason: unknown) => void): () => void {
    const signal = this.#isLookOnce ? this.signal : this.deadline.callerSignal;
    let timer: NodeJS.Timeout | undefined;
    if (signal?.aborted === true) {
      giveUp(signal.reason);
      return () => undefined;
    }
    const stopListening =
      signal &&
      onAbort(signal, () => {
        clearTimeout(timer);
        giveUp(signal.reason);
      });
    const leftMs = this.#isLookOnce ? undefined : this.deadline.remainingMs();
    if (leftMs !== undefined) {
      timer = setTimeout(() => {
        stopListening?.();
        this.#expiry ??= new DOMException('the deadline passed', 'TimeoutError');
        giveUp(this.#expiry);
      }, leftMs).unref();
    }
    return () => {
      clearTimeout(timer);
      stopListening?.();
    };
  }

  /**
   * True when `error` only says the time given ran out (the deadline passed, or a look-once
   * call's connection went or did not answer): the call then answers its "nothing" value. The caller's abort is not.
   */
  ranOut(error: unknown): boolean {
    return (
      (error !== undefined && error === this.#expiry) ||
      this.deadline.isExpiry(error) ||
      this.#lookOnce?.look.gaveUp(error) === true
    );
  }

  /** Throws the caller's reason when the caller's signal has aborted. */
  throwIfAborted(): void {
    this.deadline.throwIfAborted();
  }

  /** Ends the call's deadline: stops its timer and its listeners. */
  [Symbol.dispose](): void {
    this.deadline.dispose();
    this.#lookOnce?.unsubscribe();
  }

  #lookOnceSignal(): { look: LookOnceSignal; unsubscribe: () => void } {
    const controller = new AbortController();
    const lost = (): void => {
      if (!controller.signal.aborted) {
        controller.abort(new ConnectionLossError({ detail: 'no connection to look once on' }));
      }
    };
    // Not at close: its requests then reject with ClosedError themselves.
    const stopFollowing = connectionStreamOf(this.#client).onChange((state) => {
      if (!isConnectedState(state)) lost();
    });
    if (!this.#client.isConnected) lost();
    const look = new LookOnceSignal(controller.signal, this.deadline.callerSignal);
    const unsubscribe = (): void => {
      stopFollowing();
      look[Symbol.dispose]();
    };
    return { look, unsubscribe };
  }
}

/**
 * The signal of a read that sets `wake`'s watch: the wake's (cancelling it silences the
 * watcher) and the call's, if any (ending the call ends the read).
 */
export function watchSignal(wake: Wake, signal: AbortSignal | undefined): AbortSignal {
  return wake.signalWith(signal);
}

/**
 * What a write of a recipe gets, given the call's signal and the recipe's close (whose caller
 * races the write against it): both when the call has one; only the close when no connection
 * is up (a write still waiting for one is dropped at close, never sent); none on a live
 * connection, where the write goes out at once (a signal would cost it an AbortSignal.any in
 * the framework, and could only cut off a write already sent).
 */
export function requestSignal(
  client: FrameworkClient,
  callSignal: AbortSignal | undefined,
  closing: AbortSignal,
): AbortSignal | undefined {
  if (callSignal !== undefined) return AbortSignal.any([callSignal, closing]);
  return client.isConnected ? undefined : closing;
}
