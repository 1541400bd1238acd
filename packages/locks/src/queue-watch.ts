// How a queued node waits for its turn: the wait in Curator's internalLockLoop (watch the node
// ahead, wait for it to go) and in InterProcessSemaphoreV2 (watch the leases, wait for one to
// be returned), each followed by the next look at the queue. One per attempt; disposing it
// withdraws a watch still armed.
import {
  isNoNode,
  joinPath,
  WatchEventType,
  type FrameworkClient,
  type WatchedEvent,
} from '@zkrecipes/framework';
import type { QueueObserver } from './lock-internals.js';
import { WATCH_CHILDREN } from './lock-driver.js';
import { WakeWait, WITHDRAWN, type ConnectionStream } from '@zkrecipes/framework/recipe-support';

/** One look at the queue. */
export interface Listing {
  /** The connection stream's epoch read just before the read was sent: a hold it confirms dates from then. */
  readonly epoch: number;
  /** The children of the lock's path; none when the path does not exist. */
  readonly children: readonly string[];
}

/** The children of `path`, none when it does not exist. */
export async function listChildren(
  client: FrameworkClient,
  path: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  try {
    return await client.getChildren(path, { signal });
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
}

/** The waits of one attempt on the queue under `basePath`. */
export class QueueWatch implements Disposable {
  readonly #client: FrameworkClient;
  readonly #basePath: string;
  readonly #connection: ConnectionStream;
  /** The attempt's signal (its deadline and the caller's); every request and wait gets it. */
  readonly #signal: AbortSignal | undefined;
  /** The watch the last look at the children left, not yet waited for. */
  #childrenWatch: WakeWait | undefined;
  /** Withdraws that watch when the attempt ends without it; made with the first such watch. */
  #silence: AbortController | undefined;
  #childrenSignal: AbortSignal | undefined;
  /** The waits that a lease limit's change must wake: this one is in it until disposed. */
  readonly #waiting: Set<QueueWatch> | undefined;

  constructor(
    client: FrameworkClient,
    basePath: string,
    connection: ConnectionStream,
    signal: AbortSignal | undefined,
    waiting?: Set<QueueWatch>,
  ) {
    this.#client = client;
    this.#basePath = basePath;
    this.#connection = connection;
    this.#signal = signal;
    this.#waiting = waiting;
    waiting?.add(this);
  }

  /** Looks at the queue now, leaving no watch. The read is sent before this returns. */
  async list(): Promise<Listing> {
    const epoch = this.#connection.epoch;
    return { epoch, children: await listChildren(this.#client, this.#basePath, this.#signal) };
  }

  /**
   * Waits until `watch` (a participant's name, or the children) changes, then looks at the
   * queue again. Rejects with the signal's reason when it aborts (the deadline passed, the
   * caller gave up). After the client's close the look meets the ClosedError.
   *
   * `holdsWithout` (for a driver that judges deletions) answers the watched node's deletion
   * without a new read when it returns a look: the last one without that node, on which the
   * waiter holds. Nodes that joined since are sequential and sort after ours, and any other
   * node that left only helps, so that hold is sound on the queue as it is now. This takes a
   * round trip off a hand-over; Curator reads the children again. When the last look says
   * the waiter would still wait (it may be stale), the children are read as usual.
   */
  changeOf(
    watch: string | typeof WATCH_CHILDREN,
    observer?: Pick<QueueObserver, 'woke'>,
    holdsWithout?: (gone: string) => readonly string[] | undefined,
  ): Promise<Listing> {
    if (watch === WATCH_CHILDREN) return this.#childrenChange();
    return this.#deletionOf(watch, observer, holdsWithout);
  }

  /**
   * The node ahead, watched with getData (not exists: on a node that is already gone, exists
   * would leave a watch behind). A watch that fires after the wait ended finds nothing to do;
   * one that never fires leaves with the signal's abort.
   *
   * A handoff's critical path runs through the watch, so the watch sends the next look
   * itself, from the event: the read is made ~9 µs after the event instead of 30-40 µs after
   * it, behind the wait's promise jobs (measured on a loaded 2-core machine).
   */
  async #deletionOf(
    name: string,
    observer: Pick<QueueObserver, 'woke'> | undefined,
    holdsWithout: ((gone: string) => readonly string[] | undefined) | undefined,
  ): Promise<Listing> {
    const deleted = new WakeWait();
    let next: Promise<Listing> | Listing | undefined;
    const watch = (event: WatchedEvent): void => {
      if (deleted.ended) return;
      // The event came on our session, so our own node is still there.
      const rest = event.type === WatchEventType.NODE_DELETED ? holdsWithout?.(name) : undefined;
      if (rest !== undefined) {
        next = { epoch: this.#connection.epoch, children: rest };
      } else {
        const read = this.list();
        read.catch(() => undefined); // not unhandled if an abort makes us drop it
        next = read;
      }
      deleted.wake();
      observer?.woke(); // after any read is sent: the handoff waits for nothing of it
    };
    const signal = this.#signal;
    try {
      await this.#client.getData(joinPath(this.#basePath, name), { watch, signal });
      await deleted.wait({ signal, closed: this.#connection.closedSignal });
    } catch (error) {
      if (!isNoNode(error)) throw error; // gone already: look again at once
    }
    return next ?? this.list(); // none after the client's close: that look meets ClosedError
  }

  /**
   * The children: each look leaves a watch for the next change (only a wait sets one: a lease
   * that fits at the first, unwatched look leaves none), and the next wait waits for it.
   */
  async #childrenChange(): Promise<Listing> {
    const closed = this.#connection.closedSignal;
    await this.#childrenWatch?.wait({ signal: this.#signal, closed });
    const changed = new WakeWait();
    this.#childrenWatch = changed;
    const epoch = this.#connection.epoch;
    const children = await this.#client
      .getChildren(this.#basePath, { watch: changed.wake, signal: this.#withdrawable() })
      .catch((error: unknown) => {
        if (isNoNode(error)) return []; // no watch set: our node is gone with the path
        throw error;
      });
    return { epoch, children };
  }

  /** The signal of a children watch: the attempt's, and our own to withdraw it at the end. */
  #withdrawable(): AbortSignal {
    if (this.#childrenSignal === undefined) {
      this.#silence = new AbortController();
      const signal = this.#signal;
      this.#childrenSignal =
        signal === undefined
          ? this.#silence.signal
          : AbortSignal.any([signal, this.#silence.signal]);
    }
    return this.#childrenSignal;
  }

  /**
   * Ends a wait for the children at once, as if they had changed: the waiter looks again (the
   * semaphore's lease limit changed, so the same children may now let it in).
   */
  nudge(): void {
    this.#childrenWatch?.wake();
  }

  [Symbol.dispose](): void {
    this.#waiting?.delete(this);
    if (this.#silence !== undefined) this.#silence.abort(WITHDRAWN);
  }
}
