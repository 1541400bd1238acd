import {
  type FrameworkClient,
  isNodeExists,
  isOutcomeUnknown,
  type SignalOptions,
  validatePath,
} from '@zkrecipes/framework';
import {
  CallLimits,
  checkClient,
  TIMED_OUT,
  connectionStreamOf,
  waitForWake,
  Wake,
  watchSignal,
  checkWaitOptions,
  untilFirstConnection,
} from '@zkrecipes/framework/recipe-support';
import type { WaitOptions } from './wait-options.js';

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
 *
 * Every call ends on time with the server unreachable: a wait with `timeoutMs` resolves `false`
 * when the time runs out, a `signal` rejects with its reason, and a call with neither waits
 * for the connection until the client closes (ClosedError).
 */
export class DistributedBarrier {
  readonly #client: FrameworkClient;
  readonly #path: string;

  constructor(client: FrameworkClient, barrierPath: string) {
    checkClient('DistributedBarrier', client);
    validatePath(barrierPath, { allowRoot: false });
    this.#client = client;
    this.#path = barrierPath;
  }

  /** The barrier node's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * Creates the barrier node (and missing parents); already set is fine. Aborting `signal`
   * rejects with its reason (a request still waiting for a connection is never sent).
   */
  async setBarrier(options: SignalOptions = {}): Promise<void> {
    checkWaitOptions(options);
    try {
      await this.#client.create(this.#path, { createParents: true, signal: options.signal });
    } catch (error) {
      if (!isNodeExists(error) && !isOutcomeUnknown(error, 'NODE_EXISTS')) throw error;
    }
  }

  /**
   * Deletes the barrier node, releasing every waiter; already removed is fine. Aborting
   * `signal` rejects with its reason (a request still waiting for a connection is never sent).
   */
  async removeBarrier(options: SignalOptions = {}): Promise<void> {
    checkWaitOptions(options);
    await this.#client.delete(this.#path, { quietly: true, signal: options.signal });
  }

  /**
   * Waits until the barrier node does not exist. Resolves `true` once it is gone (at once if it
   * never existed), `false` when `timeoutMs` passes first, whatever the connection does;
   * `timeoutMs: 0` looks once, and only on a live connection. Rejects with the signal's reason
   * on abort and with ClosedError when the client closes.
   *
   * Each wake-up re-reads the node, so a data change or a session change cannot let a waiter
   * through early.
   */
  async waitOnBarrier(options: WaitOptions = {}): Promise<boolean> {
    checkWaitOptions(options);
    const { timeoutMs, signal } = options;
    signal?.throwIfAborted();
    // The time limit counts from the client's first connection (see untilFirstConnection).
    const connecting = untilFirstConnection(this.#client, signal);
    if (connecting !== undefined) await connecting;
    using limits = CallLimits.of(this.#client, timeoutMs, signal);
    try {
      for (;;) {
        const wake = new Wake();
        try {
          const stat = await this.#client.exists(this.#path, {
            watch: wake.watch,
            signal: watchSignal(wake, limits?.signal),
          });
          if (stat === null) return true;
          const woken = await waitForWake(wake.event, {
            deadline: limits?.atMs,
            signal: limits?.callerSignal,
            closed: connectionStreamOf(this.#client).closedSignal,
            path: this.#path,
          });
          if (woken === TIMED_OUT) return false;
        } finally {
          wake.cancel();
        }
      }
    } catch (error) {
      if (limits?.ranOut(error) === true) return false;
      throw error;
    }
  }
}
