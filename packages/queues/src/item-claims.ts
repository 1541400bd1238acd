// The claims a taker has in flight: the versioned delete of plain mode, the lock multi of safe
// mode. A claim decides who owns an item, so it is never cut off while its answer can still
// come: a take that gives up (its time ran out, its caller aborted) leaves the claim running,
// and an item it wins later goes to the next take. Only once the taker is closed and the
// connection is not up are claims let go of: a plain-mode delete sent while no connection was
// up, and still waiting for one, is then dropped (never sent), so the item stays in the queue.
//
// A delete sent on a live connection carries no signal: a signal costs every request an
// AbortSignal.any in the framework, and on a live connection the request is on the wire at
// once. Should that connection drop before the answer, the framework's retry goes out when it
// is back, even after close; an item it then wins has no taker left and is logged as lost.
import { ClosedError, type FrameworkClient } from '@zkrecipes/framework';
import { type CallLimits, whileConnected } from '@zkrecipes/framework/recipe-support';
import { Closing } from './closing.js';

/** How a claim went; never a rejection, so a claim nobody waits for any more is still handled. */
export type ClaimResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

export class ItemClaims {
  readonly #client: FrameworkClient;
  readonly #path: string;
  /** Closed once the taker is closed and no claim can be answered any more. */
  readonly #letGo = new Closing();
  readonly #pending = new Set<Promise<unknown>>();

  constructor(client: FrameworkClient, queuePath: string) {
    this.#client = client;
    this.#path = queuePath;
  }

  /**
   * What a plain-mode claim request gets: none on a live connection (it is sent at once);
   * otherwise the signal that drops it, still unsent, once the taker is closed.
   */
  signalFor(): AbortSignal | undefined {
    return this.#client.isConnected ? undefined : this.#letGo.signal;
  }

  /** Tracks a claim just sent. */
  track<T>(claim: Promise<T>): Promise<ClaimResult<T>> {
    const result: Promise<ClaimResult<T>> = claim.then(
      (value) => {
        this.#pending.delete(result);
        return { ok: true, value };
      },
      (error: unknown) => {
        this.#pending.delete(result);
        return { ok: false, error };
      },
    );
    this.#pending.add(result);
    return result;
  }

  /**
   * Waits for a claim's result. Rejects when the call gives up first (`limits`: with the
   * deadline's or the caller's reason) or the claim is let go of (ClosedError); the claim goes
   * on, and whoever gave up handles its late result.
   */
  wait<T>(
    result: Promise<ClaimResult<T>>,
    limits: CallLimits | undefined,
  ): Promise<ClaimResult<T>> {
    return this.#letGo.until(result, limits);
  }

  /**
   * The taker closed: claims in flight are waited for while the connection is up (a round
   * trip), then let go of.
   */
  close(): void {
    const closed = new ClosedError({ path: this.#path, detail: 'the queue is closed' });
    const letGo = (): void => this.#letGo.close(closed);
    if (this.#pending.size === 0) letGo();
    else void whileConnected(this.#client).wait(Promise.all(this.#pending)).then(letGo);
  }
}
