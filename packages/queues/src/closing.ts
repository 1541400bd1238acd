// How a queue ends its waits when it closes. Every put, take and claim waits on something it
// must be able to stop waiting for (a reply that may never come while the server is away), so
// this is on the hot path: a wait registers a callback in a set rather than a listener on an
// AbortSignal (EventTarget listeners cost microseconds each in Node), and nothing is made at
// all for a call without a timeout or a signal beyond that one entry.
import type { CallLimits } from '@zkrecipes/framework/recipe-support';

export class Closing {
  readonly #controller = new AbortController();
  readonly #waits = new Set<(reason: unknown) => void>();

  /**
   * Aborted at close with its reason: for requests sent while no connection is up (one still
   * waiting for a connection is then dropped, never sent) and for shared work.
   */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Throws the close's reason once closed. */
  throwIfClosed(): void {
    this.#controller.signal.throwIfAborted();
  }

  /**
   * Settles like `work`, or rejects first with the close's reason, or when `limits` give up
   * (the deadline's TimeoutError, the caller's reason). `work` goes on either way, and its late
   * rejection is handled.
   */
  until<T>(work: Promise<T>, limits?: CallLimits): Promise<T> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the close's reason
    if (this.closed) return Promise.reject(this.#controller.signal.reason);
    return new Promise<T>((resolve, reject) => {
      // Filled in below; a caller that aborted already gives up before it is.
      const held: { stopLimits?: () => void } = {};
      const end = (): void => {
        held.stopLimits?.();
        this.#waits.delete(fail);
      };
      const fail = (reason: unknown): void => {
        end();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on unchanged
        reject(reason);
      };
      this.#waits.add(fail);
      held.stopLimits = limits?.onGiveUp(fail);
      work.then(
        (value) => {
          end();
          resolve(value);
        },
        (error: unknown) => fail(error),
      );
    });
  }

  /** Closes: every wait under way rejects with `reason`, and so does every later one. */
  close(reason: unknown): void {
    if (this.closed) return;
    this.#controller.abort(reason);
    for (const fail of [...this.#waits]) fail(reason);
  }
}
