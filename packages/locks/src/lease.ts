import type { FrameworkClient } from '@zkrecipes/framework';
import type { LossSignal } from './connection-watch.js';

/**
 * One lease of an {@link InterProcessSemaphoreV2} (Curator's `Lease`): the ephemeral node
 * `_c_<uuid>-lease-<sequence>` under `<path>/leases`. Close it when done (ideally in a
 * `finally`, or with `await using`); if the session ends first, ZooKeeper frees it.
 */
export class Lease implements AsyncDisposable {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #loss: LossSignal;
  #closed: Promise<void> | undefined;

  /** @internal Leases come from InterProcessSemaphoreV2.acquire. */
  constructor(client: FrameworkClient, path: string, loss: LossSignal) {
    this.#client = client;
    this.#path = path;
    this.#loss = loss;
  }

  /** The lease node's full path (namespace-relative). */
  get path(): string {
    return this.#path;
  }

  /** The lease node's name (Curator's `getNodeName()`). */
  get nodeName(): string {
    return this.#path.slice(this.#path.lastIndexOf('/') + 1);
  }

  /**
   * Aborts when the client's error policy says the lease may be gone (SUSPENDED or LOST under
   * 'standard', LOST under 'session') or the client closes. It does not abort on `close()`.
   */
  get lost(): AbortSignal {
    return this.#loss.signal;
  }

  /** The data stored in the lease node (Curator's `getData()`). */
  async getData(): Promise<Buffer> {
    return (await this.#client.getData(this.#path)).data;
  }

  /**
   * Gives the lease back: deletes the node (guaranteed: a failure is retried in the background
   * until the node is gone). A second call returns the first call's outcome.
   */
  close(): Promise<void> {
    this.#closed ??= this.#release();
    return this.#closed;
  }

  /** `await using lease = await semaphore.acquire()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #release(): Promise<void> {
    this.#loss.end();
    await this.#client.delete(this.#path, { guaranteed: true, quietly: true });
  }
}
