// A LeaderLatch's current leadership as an object (the Leadership a selector's takeLeadership
// gets): its token is the czxid of the node it leads through, read by the check that made it
// leader, and it ends when the latch's isLeader turns false.
import {
  ClosedError,
  ConnectionLossError,
  HoldLostError,
  SessionExpiredError,
  type FrameworkClient,
  type TransactionOp,
  type TransactionOptions,
  type TransactionResult,
} from '@zkrecipes/framework';
import {
  guardedTransaction,
  type ConnectionStream,
  type LossCause,
} from '@zkrecipes/framework/recipe-support';
import type { Leadership } from './leadership.js';

/** Why a latch's leadership ended, as its signal's reason. */
function endReason(cause: LossCause | undefined, latchClosed: boolean, path: string): Error {
  switch (cause) {
    case 'SUSPENDED':
      return new ConnectionLossError({
        path,
        detail: 'connection SUSPENDED: leadership may be lost',
      });
    case 'LOST':
      return new SessionExpiredError({ path, detail: 'session LOST: leadership is gone' });
    case 'CLOSED':
      return new ClosedError({ path, detail: 'the client closed: leadership is gone' });
    case undefined:
      return latchClosed
        ? new ClosedError({ path, detail: 'LeaderLatch closed' })
        : new DOMException('leadership ended: our node is gone or no longer first', 'AbortError');
  }
}

/** @internal One leadership of a LeaderLatch: from its check's grant until isLeader is false. */
export class LatchLeadership implements Leadership {
  readonly #client: FrameworkClient;
  readonly #connection: ConnectionStream;
  /** The connection epoch the granting check read before sending anything. */
  readonly #epoch: number;
  /** The node we lead through (namespace-relative). */
  readonly path: string;
  readonly fencingToken: bigint;
  readonly #controller = new AbortController();

  constructor(
    client: FrameworkClient,
    connection: ConnectionStream,
    epoch: number,
    path: string,
    fencingToken: bigint,
  ) {
    this.#client = client;
    this.#connection = connection;
    this.#epoch = epoch;
    this.path = path;
    this.fencingToken = fencingToken;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get ended(): boolean {
    return this.#controller.signal.aborted;
  }

  get fencingTokenString(): string {
    return this.fencingToken.toString();
  }

  get validUntil(): number {
    return this.ended ? -Infinity : this.#connection.validUntilSince(this.#epoch);
  }

  isValid(): boolean {
    return performance.now() < this.validUntil;
  }

  transaction(
    ops: readonly TransactionOp[],
    options?: TransactionOptions,
  ): Promise<TransactionResult[]> {
    return guardedTransaction(this.#client, this.path, ops, options, this.#refusal());
  }

  /** The latch's isLeader turned false: aborts the signal with why. */
  end(latchClosed: boolean): void {
    if (this.ended) return;
    const cause = this.#connection.lossSince(this.#epoch);
    this.#controller.abort(endReason(cause, latchClosed, this.path));
  }

  #refusal(): HoldLostError | undefined {
    const cause = this.#connection.lossSince(this.#epoch);
    if (!this.ended && cause === undefined) return undefined;
    return new HoldLostError({
      path: this.path,
      detail: cause === undefined ? 'leadership ended' : `leadership may be gone (${cause})`,
      cause: this.ended ? this.signal.reason : undefined,
      sent: false,
    });
  }
}
