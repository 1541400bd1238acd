import type { WatchedEvent, Watcher } from '../zk/zookeeper-types.js';

/** A watcher for one read, and what to call once that read has succeeded. */
export interface WatchAttempt {
  /** The watcher to hand to the read. */
  readonly watcher: Watcher;
  /** The read carrying `watcher` succeeded: call it as that read's await resumes. */
  readonly confirm: () => void;
}

/**
 * Whether a one-shot watch that a recipe keeps setting again (a queue's children, a node it
 * keeps) is on the server right now, so that a read can skip setting a second one.
 *
 * "Armed" is taken on when the read that set the watch succeeds. The client's ordering
 * contract (docs/framework/connection-states.md) makes that sound: the watch's event is
 * delivered after the code awaiting that read resumed, so it always finds the watch armed and
 * clears it. Only the latest watch counts: an older one that fires late says nothing about the
 * current one, and `onFire` is told so.
 */
export class RearmableWatch {
  readonly #onFire: (event: WatchedEvent, current: boolean) => void;
  #latest: object | undefined;
  #armed = false;

  constructor(onFire: (event: WatchedEvent, current: boolean) => void) {
    this.#onFire = onFire;
  }

  /** The latest watch was set, and has not fired since. */
  get armed(): boolean {
    return this.#armed;
  }

  /**
   * A watcher for the next read; undefined while armed (no second watch needed), unless
   * `force` (the node is being replaced: the armed watch belongs to the old one).
   */
  next(force = false): WatchAttempt | undefined {
    if (this.#armed && !force) return undefined;
    this.#armed = false;
    const token = {};
    this.#latest = token;
    return {
      watcher: (event) => {
        const current = this.#latest === token;
        if (current) this.#armed = false;
        this.#onFire(event, current);
      },
      confirm: () => {
        if (this.#latest === token) this.#armed = true;
      },
    };
  }

  /** Forget the armed watch (it is known to be gone). */
  disarm(): void {
    this.#armed = false;
  }
}
