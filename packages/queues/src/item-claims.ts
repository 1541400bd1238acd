// The claims a taker has in flight: the versioned delete of plain mode, the lock multi of safe
// mode. A claim decides who owns an item, so it is never cut off while its answer can still
// come: a take that gives up (its time ran out, its caller aborted) leaves the claim running,
// and an item it wins later goes to the next take. Only once the taker is closed and the
// connection is not up are claims let go of: a plain-mode delete still waiting for a connection
// is then dropped (never sent), so the item stays in the queue for others.
import { ClosedError, type FrameworkClient } from '@zkrecipes/framework';
import type { CallLimits } from './call-limits.js';
import { settleWithin } from './settle-within.js';
import { whileConnected } from './while-connected.js';

/** How a claim went; never a rejection, so a claim nobody waits for any more is still handled. */
export type ClaimResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

export class ItemClaims {
  readonly #client: FrameworkClient;
  readonly #path: string;
  /** Aborted once the taker is closed and no claim can be answered any more. */
  readonly #letGo = new AbortController();
  readonly #pending = new Set<Promise<unknown>>();

  constructor(client: FrameworkClient, queuePath: string) {
    this.#client = client;
    this.#path = queuePath;
  }

  /** What a plain-mode claim request gets: a delete waiting for a connection after close is dropped. */
  get signal(): AbortSignal {
    return this.#letGo.signal;
  }

  /** Tracks a claim just sent. */
  track<T>(claim: Promise<T>): Promise<ClaimResult<T>> {
    const result = claim.then(
      (value): ClaimResult<T> => ({ ok: true, value }),
      (error: unknown): ClaimResult<T> => ({ ok: false, error }),
    );
    this.#pending.add(result);
    void result.then(() => this.#pending.delete(result));
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
    return settleWithin(result, limits?.signal, this.#letGo.signal);
  }

  /**
   * The taker closed: claims in flight are waited for while the connection is up (a round
   * trip), then let go of.
   */
  close(): void {
    const closed = new ClosedError({ path: this.#path, detail: 'the queue is closed' });
    if (this.#pending.size === 0) {
      this.#letGo.abort(closed);
      return;
    }
    void whileConnected(this.#client, Promise.all(this.#pending)).then(() =>
      this.#letGo.abort(closed),
    );
  }
}
