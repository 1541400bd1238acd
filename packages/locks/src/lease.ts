import type {
  FrameworkClient,
  Logger,
  SignalOptions,
  TransactionOp,
  TransactionOptions,
  TransactionResult,
} from '@zkrecipes/framework';
import { checkSignalOptions, guardedTransaction } from '@zkrecipes/framework/recipe-support';
import type { HoldValidity } from './hold-validity.js';
import { releaseOwnNode, removeOwnNode } from './own-node.js';
import type { LockTelemetry } from './lock-telemetry.js';

/**
 * One lease of an {@link InterProcessSemaphoreV2} (Curator's `Lease`): the ephemeral node
 * `_c_<uuid>-lease-<sequence>` under `<path>/leases`. Close it when done (ideally in a
 * `finally`, or with `await using`); if the session ends first, ZooKeeper frees it.
 */
export class Lease implements AsyncDisposable {
  readonly #client: FrameworkClient;
  readonly #path: string;
  readonly #validity: HoldValidity;
  /**
   * Strictly greater than the token of every lease granted on this semaphore before this one,
   * also across a delete and re-create of its path: the lease node's czxid, from the create's
   * reply (the number `zkrecipes inspect` shows and a Java service reads from the node's Stat).
   * Leases are granted in the order their nodes were created (one at a time, under the
   * semaphore's mutex), and zxids only grow. Leases held at once have distinct tokens.
   */
  readonly fencingToken: bigint;
  #closed: Promise<void> | undefined;
  #onEnd: (() => void) | undefined;

  /** @internal Leases come from InterProcessSemaphoreV2.acquire. */
  constructor(client: FrameworkClient, path: string, fencingToken: bigint, validity: HoldValidity) {
    this.#client = client;
    this.#path = path;
    this.fencingToken = fencingToken;
    this.#validity = validity;
  }

  /** {@link fencingToken} in decimal, for JSON, headers and logs; `BigInt(s)` gives it back. */
  get fencingTokenString(): string {
    return this.fencingToken.toString();
  }

  /** The lease node's full path (namespace-relative). */
  get path(): string {
    return this.#path;
  }

  /** The lease node's name. */
  get nodeName(): string {
    return this.#path.slice(this.#path.lastIndexOf('/') + 1);
  }

  /** Curator's `getNodeName()`: {@link nodeName}. */
  getNodeName(): string {
    return this.nodeName;
  }

  /**
   * Aborts when the client's error policy says the lease may be gone (SUSPENDED or LOST under
   * 'standard', LOST under 'session') or the client closes. It does not abort on `close()`.
   */
  get lost(): AbortSignal {
    return this.#validity.signal;
  }

  /**
   * Until when (a `performance.now()` instant) the lease is known to be held: the client's
   * `validUntilMs`, or -Infinity once `lost` would abort or after `close()`. Computed when
   * read: right after a long event-loop stall it is already in the past.
   */
  get validUntil(): number {
    return this.#validity.validUntil;
  }

  /** `performance.now() < validUntil`: check it right before each side effect. */
  isValid(): boolean {
    return this.#validity.isValid();
  }

  /**
   * A write that lands only while this lease does: runs `ops` in one ZooKeeper transaction
   * with a check that the lease node still exists. Resolves the results of `ops` (the check's
   * own result is left out). Rejects with HoldLostError (`isHoldLost`) when the node is gone
   * (nothing was written), or at once, sending nothing, after `close()` or once `lost` would
   * abort. `idempotent` defaults to true. See `LockHold.transaction`.
   */
  transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]> {
    return guardedTransaction(this.#client, this.#path, ops, options, this.#validity.refusal());
  }

  /**
   * The data stored in the lease node (Curator's `getData()`). Aborting `signal` rejects with
   * its reason at once, in any connection state (the read is given it).
   */
  async getData(options: SignalOptions = {}): Promise<Buffer> {
    const signal = checkSignalOptions(options);
    return (await this.#client.getData(this.#path, { signal })).data;
  }

  /**
   * Gives the lease back: deletes the node (guaranteed), waiting for the answer only while the
   * client is connected; during an outage the delete goes on in the background (and the node
   * ends with its session anyway). A second call returns the first call's outcome.
   */
  close(): Promise<void> {
    this.#closed ??= this.#end(() => releaseOwnNode(this.#client, this.#path));
    return this.#closed;
  }

  /** `await using lease = await semaphore.acquire()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * @internal Gives back a lease of an acquire that failed or timed out: the delete is sent
   * at once, awaited only until `signal` aborts, and a failure is reported, never thrown.
   */
  discard(options: {
    readonly logger: Logger;
    readonly signal: AbortSignal | undefined;
  }): Promise<void> {
    this.#closed ??= this.#end(() => removeOwnNode(this.#client, this.#path, options));
    return this.#closed;
  }

  /** @internal Times the lease (and counts its lost signal) until it is given back. */
  traced(telemetry: LockTelemetry): void {
    telemetry.held(this, () => this.lost);
    this.#onEnd = () => telemetry.released(this);
  }

  async #end(remove: () => Promise<void>): Promise<void> {
    this.#onEnd?.();
    this.#validity.end();
    await remove();
  }
}
