// Safe mode (Curator's `lockPath`): an item is locked while its consumer runs and removed only
// afterwards. Curator's protocol, same lock nodes (`<lockPath>/<item name>`, ephemeral), made
// atomic and session-proof with multis:
//
//   lock:    [check presence, create lock (EPHEMERAL), check item (version)]     one round trip
//   finish:  [check presence, delete item, (create queue-N: requeue,) delete lock] one round trip
//   release: [check presence, delete lock]                                       item stays put
//
// The presence node is an ephemeral node of this consumer, one per session. ZooKeeper deletes a
// session's ephemerals together, so "presence exists" means "our locks exist". A multi the
// framework re-sends on a new session after the old one expired therefore fails its first check
// instead of deleting an item (and a lock) another consumer now holds.
import { randomUUID } from 'node:crypto';
import {
  BoundedExponentialBackoffRetry,
  type FrameworkClient,
  isNodeExists,
  isNoNode,
  isOutcomeUnknown,
  isRetryable,
  joinPath,
  type Logger,
  op,
  retryLoop,
  SessionExpiredError,
  TransactionFailedError,
  type TransactionOp,
} from '@zkrecipes/framework';
import { deleteOwnNode, type Wake, whileConnected } from '@zkrecipes/framework/recipe-support';
import { DISTRIBUTED_QUEUE_PREFIX } from './queue-node-names.js';

/** The prefix of presence nodes in the lock path (never an item name: those are `queue-N`). */
export const PRESENCE_PREFIX = 'zkr-consumer-';

/** A lock this consumer holds on one item. */
export interface Lease {
  /** The item's node name, e.g. `queue-0000000042`. */
  readonly name: string;
  readonly itemPath: string;
  readonly lockNodePath: string;
  /** The presence node the lock was taken under. */
  readonly presencePath: string;
  /**
   * Aborts when the lock may be lost (the client's error-policy states: SUSPENDED, LOST) or the
   * queue closes. One per lease, released when the lease ends.
   */
  readonly signal: AbortSignal;
}

/** What trying to lock an item found. */
export type LockOutcome =
  | { readonly kind: 'locked'; readonly lease: Lease }
  /** Another consumer holds it; the wake given to lock() fires when that lock goes. */
  | { readonly kind: 'busy' }
  /** The item is gone (done by someone else). */
  | { readonly kind: 'gone' }
  /** The item's data changed since it was read: read it again. */
  | { readonly kind: 'changed' };

/** How a lease ends. */
export type LeaseEnd =
  | { readonly kind: 'delete' }
  | { readonly kind: 'requeue'; readonly data: Buffer }
  | { readonly kind: 'release' };

/** How finishing went: done, or the lock was already lost (the item is left for others). */
export type FinishOutcome =
  { readonly kind: 'done'; readonly requeuedAs?: string | undefined } | { readonly kind: 'lost' };

const MAX_FINISH_BACKOFF_MS = 2000;

/**
 * Between tries of a lease's end that failed with a connection-class error: 50 ms after the
 * first, growing to at most 2 s apart, for as long as it takes (the lease must end). Before
 * retryLoop this doubled a fixed 50 ms (50, 100, 200, ... 2 s); the policy draws each delay at
 * random around the same doubling (50-150 ms, then 50-350 ms, ...).
 */
const FINISH_RETRY_POLICY = new BoundedExponentialBackoffRetry({
  baseSleepMs: 50,
  maxSleepMs: MAX_FINISH_BACKOFF_MS,
  maxRetries: Number.MAX_SAFE_INTEGER,
});

export class LockSafety {
  readonly #client: FrameworkClient;
  readonly #queuePath: string;
  readonly #lockPath: string;
  readonly #logger: Logger;
  readonly #instanceId = randomUUID();
  readonly #closed = new AbortController();
  #generation = 0;
  #presence: { readonly path: string; readonly ready: Promise<void> } | undefined;
  /** Presence nodes this consumer created (or may have): close() deletes them. */
  readonly #presencePaths = new Set<string>();
  /** The signals of the leases held now, by lease. */
  readonly #leaseSignals = new Map<Lease, AbortController>();
  /** Grows at every moment held locks may have been lost; a lock taken across one is doubtful. */
  #epoch = 0;
  #lossReason: unknown;
  /** Locks and finishes under way: close() lets them end before it removes the presence node. */
  readonly #pending = new Set<Promise<unknown>>();

  readonly #requeuePrefix: (name: string) => string;

  /**
   * `requeuePrefix` names a requeued copy of an item (the server adds the sequence); by default
   * `queue-`, DistributedQueue's.
   */
  constructor(
    client: FrameworkClient,
    queuePath: string,
    lockPath: string,
    logger: Logger,
    requeuePrefix: (name: string) => string = () => DISTRIBUTED_QUEUE_PREFIX,
  ) {
    this.#client = client;
    this.#queuePath = queuePath;
    this.#lockPath = lockPath;
    this.#logger = logger;
    this.#requeuePrefix = requeuePrefix;
  }

  /** Tells current lease holders their locks may be lost; later leases get a fresh signal. */
  holdMayBeLost(reason: string): void {
    this.#loseAll(new SessionExpiredError({ detail: `the item's lock may be lost: ${reason}` }));
  }

  /**
   * Tries to lock an item whose data (at `version`) this consumer has read. When another
   * consumer holds it, `wake` is left watching that lock; otherwise it is cancelled.
   */
  lock(name: string, version: number, wake: Wake): Promise<LockOutcome> {
    return this.#track(
      this.#lock(name, version, wake).then(
        (outcome) => {
          if (outcome.kind !== 'busy') wake.cancel();
          return outcome;
        },
        (error: unknown) => {
          wake.cancel();
          throw error;
        },
      ),
    );
  }

  async #lock(name: string, version: number, wake: Wake): Promise<LockOutcome> {
    const itemPath = joinPath(this.#queuePath, name);
    const lockNodePath = joinPath(this.#lockPath, name);
    for (let attempt = 0; ; attempt += 1) {
      const presencePath = await this.#currentPresence();
      // A loss while the multi is out makes the new lease doubtful from its first moment.
      const epoch = this.#epoch;
      const newLease = (): Lease =>
        this.#lease({ name, itemPath, lockNodePath, presencePath }, epoch);
      // The lock's data names its holder, so a lock this consumer made can be told apart from
      // one another consumer on the same session made (Curator puts the host address there).
      const holder = Buffer.from(presencePath.slice(presencePath.lastIndexOf('/') + 1));
      try {
        await this.#client.transaction(
          [
            op.check(presencePath),
            op.create(lockNodePath, { mode: 'EPHEMERAL', data: holder }),
            op.check(itemPath, { version }),
          ],
          { idempotent: true },
        );
        return { kind: 'locked', lease: newLease() };
      } catch (error) {
        if (!(error instanceof TransactionFailedError)) throw error;
        if (error.failedOpIndex === 0) {
          // Our presence went with a session: make a new one and try again.
          this.#forgetPresence(presencePath);
          if (attempt < 3) continue;
          throw error;
        }
        if (error.failedOpIndex === 2) {
          return isNoNode(error) ? { kind: 'gone' } : { kind: 'changed' };
        }
        if (!isNodeExists(error)) throw error;
        // The lock exists. It may be ours: an earlier attempt of this multi whose reply was lost.
        // The same read sets the watch that brings the item back when another holder lets go.
        const mine = await this.#holds(lockNodePath, holder, wake);
        if (mine === undefined) {
          if (attempt < 3) continue; // released meanwhile: try again
          return { kind: 'gone' };
        }
        return mine ? { kind: 'locked', lease: newLease() } : { kind: 'busy' };
      }
    }
  }

  /** Whether we hold the lock node (watching it); undefined when it is gone. */
  async #holds(lockNodePath: string, holder: Buffer, wake: Wake): Promise<boolean | undefined> {
    try {
      const { data, stat } = await this.#client.getData(lockNodePath, {
        watch: wake.watch,
        signal: wake.signal,
      });
      return stat.ephemeralOwner === this.#client.sessionId && data.equals(holder);
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  }

  /**
   * Ends a lease: deletes (or requeues, or just unlocks) the item in one multi guarded by the
   * presence check. Connection trouble is retried until it goes through, the lease turns out
   * lost, or the client closes; the queue's close does not stop it (close() waits for it only
   * while connected, and removes the presence node after it).
   */
  finish(lease: Lease, end: LeaseEnd): Promise<FinishOutcome> {
    // Handed back unprocessed: a consumer still at work on it must stop.
    if (end.kind === 'release') {
      this.#leaseSignals
        .get(lease)
        ?.abort(new SessionExpiredError({ detail: "the item's lock was handed back" }));
    }
    return this.#track(this.#finish(lease, end)).finally(() => this.#endLease(lease));
  }

  async #finish(lease: Lease, end: LeaseEnd): Promise<FinishOutcome> {
    const ops: TransactionOp[] = [op.check(lease.presencePath)];
    if (end.kind !== 'release') ops.push(op.delete(lease.itemPath));
    if (end.kind === 'requeue') {
      ops.push(
        op.create(joinPath(this.#queuePath, this.#requeuePrefix(lease.name)), {
          data: end.data,
          mode: 'PERSISTENT_SEQUENTIAL',
        }),
      );
    }
    ops.push(op.delete(lease.lockNodePath));
    return retryLoop<FinishOutcome>(
      async () => {
        try {
          const results = await this.#client.transaction(ops, { idempotent: true });
          const created = results.find((result) => result.type === 'create');
          return { kind: 'done', requeuedAs: created?.path };
        } catch (error) {
          if (!(error instanceof TransactionFailedError)) throw error;
          if (error.failedOpIndex === 0) return { kind: 'lost' };
          if (error.failedOpIndex === 1 && isNoNode(error)) {
            // The item is gone although our presence (hence our lock) is there: an earlier
            // attempt of this very multi whose reply was lost, or a consumer that ignores
            // locks. Either way it is done; make sure our lock goes too.
            if (end.kind !== 'release') await this.#finish(lease, { kind: 'release' });
            return { kind: 'done' };
          }
          throw error;
        }
      },
      {
        policy: FINISH_RETRY_POLICY,
        // A failed multi is an answer, never retried; connection-class errors are.
        isRetryable: (error) => !(error instanceof TransactionFailedError) && isRetryable(error),
        onRetry: ({ delayMs, error }) => {
          this.#logger.debug('retrying the end of a lease', {
            path: lease.itemPath,
            delayMs,
            error,
          });
        },
      },
    );
  }

  /**
   * Closes: every lease's signal aborts, and once the locks and finishes under way have ended,
   * the presence node is deleted (through deleteOwnNode: in the background when not connected).
   * Resolves when that is done, or at once when the connection is not up, or after `timeoutMs`;
   * what is left goes on in the background.
   */
  async close(timeoutMs: number): Promise<void> {
    if (this.#closed.signal.aborted) return;
    const closed = new SessionExpiredError({ detail: 'the queue is closed' });
    this.#closed.abort(closed);
    this.#loseAll(closed);
    const cleanup = this.#removePresence().catch((error: unknown) => {
      // Ephemeral: it goes with the session anyway.
      this.#logger.debug('could not delete the presence node', { error });
    });
    await whileConnected(this.#client, { withinMs: timeoutMs }).wait(cleanup);
  }

  /** After every lock and finish under way: those need the presence node to be there. */
  async #removePresence(): Promise<void> {
    while (this.#pending.size > 0) {
      await Promise.allSettled([...this.#pending]);
      // A lock that ended may start its release in a continuation: let those run first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.#presence = undefined;
    await Promise.all([...this.#presencePaths].map((path) => deleteOwnNode(this.#client, path)));
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const forget = (): void => {
      this.#pending.delete(work);
    };
    work.then(forget, forget);
    return work;
  }

  #lease(fields: Omit<Lease, 'signal'>, epoch: number): Lease {
    const controller = new AbortController();
    const lease: Lease = { ...fields, signal: controller.signal };
    if (epoch !== this.#epoch || this.#closed.signal.aborted) controller.abort(this.#lossReason);
    else this.#leaseSignals.set(lease, controller);
    return lease;
  }

  #endLease(lease: Lease): void {
    this.#leaseSignals.delete(lease);
  }

  #loseAll(reason: unknown): void {
    this.#epoch += 1;
    this.#lossReason = reason;
    const controllers = [...this.#leaseSignals.values()];
    this.#leaseSignals.clear();
    for (const controller of controllers) controller.abort(reason);
  }

  #currentPresence(): Promise<string> {
    if (this.#presence === undefined) {
      this.#generation += 1;
      const path = joinPath(
        this.#lockPath,
        `${PRESENCE_PREFIX}${this.#instanceId}-${this.#generation}`,
      );
      this.#presencePaths.add(path);
      const ready = this.#client
        .create(path, { mode: 'EPHEMERAL', createParents: true, signal: this.#closed.signal })
        .then(
          () => undefined,
          (error: unknown) => {
            // A retried create whose first attempt went through (OutcomeUnknownError after a
            // lost reply): the node is ours, its name this instance's alone.
            if (isNodeExists(error) || isOutcomeUnknown(error, 'NODE_EXISTS')) return;
            this.#forgetPresence(path);
            throw error;
          },
        );
      this.#presence = { path, ready };
    }
    const { path, ready } = this.#presence;
    return ready.then(() => path);
  }

  #forgetPresence(path: string): void {
    if (this.#presence?.path === path) this.#presence = undefined;
  }
}
