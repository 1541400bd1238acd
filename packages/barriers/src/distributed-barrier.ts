import {
  deadlineOf,
  type FrameworkClient,
  isNodeExists,
  TIMED_OUT,
  validatePath,
  waitForWake,
  Wake,
} from '@zkrecipes/framework';
import { validateWaitOptions, type WaitOptions } from './wait-options.js';

/**
 * A barrier (Curator's `DistributedBarrier`): while the barrier node exists, everyone who calls
 * {@link waitOnBarrier} waits; removing the node lets them all through at once.
 *
 * ```ts
 * const barrier = new DistributedBarrier(client, '/app/deploy-gate');
 * await barrier.setBarrier();                              // coordinator closes the gate
 * const passed = await barrier.waitOnBarrier({ timeoutMs: 30_000 }); // workers wait
 * await barrier.removeBarrier();                           // coordinator opens it
 * ```
 *
 * The barrier node is a persistent node with empty data: it survives its creator's session,
 * so a crashed coordinator leaves the gate closed until someone removes it.
 */
export class DistributedBarrier {
  readonly #client: FrameworkClient;
  readonly #path: string;

  constructor(client: FrameworkClient, barrierPath: string) {
    validatePath(barrierPath, { allowRoot: false });
    this.#client = client;
    this.#path = barrierPath;
  }

  /** The barrier node's path. */
  get path(): string {
    return this.#path;
  }

  /** Creates the barrier node (and missing parents); already set is fine. */
  async setBarrier(): Promise<void> {
    try {
      await this.#client.create(this.#path, { createParents: true });
    } catch (error) {
      if (!isNodeExists(error)) throw error;
    }
  }

  /** Deletes the barrier node, releasing every waiter; already removed is fine. */
  async removeBarrier(): Promise<void> {
    await this.#client.delete(this.#path, { quietly: true });
  }

  /**
   * Waits until the barrier node does not exist. Resolves `true` once it is gone (at once if it
   * never existed), `false` when `timeoutMs` passes first; rejects with the signal's reason on
   * abort and with ClosedError when the client closes.
   *
   * Each wake-up re-reads the node, so a data change or a session change cannot let a waiter
   * through early.
   */
  async waitOnBarrier(options: WaitOptions = {}): Promise<boolean> {
    validateWaitOptions(options);
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    const deadline = deadlineOf(timeoutMs);
    for (;;) {
      const wake = new Wake();
      try {
        const stat = await this.#client.exists(this.#path, {
          watch: wake.watch,
          signal: wake.signal,
        });
        if (stat === null) return true;
        const woken = await waitForWake(wake.event, {
          deadline,
          signal,
          client: this.#client,
          path: this.#path,
        });
        if (woken === TIMED_OUT) return false;
      } finally {
        wake.cancel();
      }
    }
  }
}
