// What a hold knows about itself, built on the client's connection stream (recipe-support's
// `connectionStreamOf`): a hold only remembers the epoch it was confirmed in, and an AbortSignal
// is made (and registered with the stream) only when someone asks for it. An uncontended
// acquire/release cycle thus costs no subscription at all.
import { performance } from 'node:perf_hooks';
import {
  ClosedError,
  ConnectionLossError,
  HoldLostError,
  SessionExpiredError,
} from '@zkrecipes/framework';
import type { ConnectionStream, LossCause } from '@zkrecipes/framework/recipe-support';
import { onAbort } from '@zkrecipes/framework/recipe-support';

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
  readonly #watch: ConnectionStream;
  readonly #epoch: number;
  readonly #path: string;
  #controller: AbortController | undefined;
  /** What `end()` stops: the subscriptions (the signal's, `onLost`'s) still waiting. */
  #lossListeners: Set<() => void> | undefined;
  #ended = false;

  constructor(watch: ConnectionStream, epoch: number, path: string) {
    this.#watch = watch;
    this.#epoch = epoch;
    this.#path = path;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      this.#whenLost((reason) => controller.abort(reason));
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` with the reason `signal` aborts (or would abort) with, once, unless the
   * hold ends first; at once when that loss already happened. Same rule as the signal, without
   * making one: an AbortSignal and its first listener cost more than the rest of a leader's
   * hand-over bookkeeping. Returns the function that stops listening.
   */
  onLost(listener: (reason: Error) => void): () => void {
    const controller = this.#controller;
    if (controller !== undefined) {
      // The signal exists (someone asked for it): follow it, so both always agree.
      const { signal } = controller;
      const follow = (): void => listener(signal.reason as Error);
      if (signal.aborted) {
        follow();
        return () => {};
      }
      return onAbort(signal, follow);
    }
    return this.#whenLost(listener);
  }

  /**
   * The one rule of both: `listener` gets the loss since the hold was confirmed at once, else
   * the next one, unless the hold ends first. Returns the function that stops listening.
   */
  #whenLost(listener: (reason: Error) => void): () => void {
    const cause = this.#watch.lossSince(this.#epoch);
    if (cause !== undefined) {
      listener(lossReason(cause, this.#path));
      return () => {};
    }
    if (this.#ended) return () => {};
    const listeners = (this.#lossListeners ??= new Set());
    const stop = this.#watch.onNextLoss((next) => {
      listeners.delete(stop);
      listener(lossReason(next, this.#path));
    });
    listeners.add(stop);
    return () => {
      listeners.delete(stop);
      stop();
    };
  }

  /**
   * -Infinity once the hold ended or a loss happened since it was confirmed; otherwise the
   * client's `validUntilMs`. Computed when read, from the time the server last answered, so it
   * is right on the first line after an event-loop stall, before any timer or event has run.
   */
  get validUntil(): number {
    return this.#ended ? -Infinity : this.#watch.validUntilSince(this.#epoch);
  }

  /**
   * Why a guarded write must not even be sent, when that is known here: the hold ended, or a
   * loss came since it was confirmed (what `lost` aborts on). Undefined otherwise: the server's
   * check of the node then decides, which is right also after a stall no event reported yet.
   */
  refusal(): HoldLostError | undefined {
    if (this.#ended) {
      return new HoldLostError({ path: this.#path, detail: 'the hold was released', sent: false });
    }
    const cause = this.#watch.lossSince(this.#epoch);
    if (cause === undefined) return undefined;
    return new HoldLostError({
      path: this.#path,
      detail: `the hold may be gone (${cause} since it was granted)`,
      // The reason `lost` aborted with, when someone made the signal: the same object.
      cause:
        this.#controller?.signal.aborted === true
          ? (this.#controller.signal.reason as Error)
          : lossReason(cause, this.#path),
      sent: false,
    });
  }

  /** `performance.now() < validUntil`. */
  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  /** The hold ended normally: stop listening (the signal stays as it is). */
  end(): void {
    this.#ended = true;
    if (this.#lossListeners !== undefined) {
      for (const stop of this.#lossListeners) stop();
      this.#lossListeners = undefined;
    }
  }
}
