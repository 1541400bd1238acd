import type { WatchedEvent, Watcher } from '../zk/zookeeper-types.js';

/** A watcher for one read, and what to call once that read has succeeded. */
export interface WatchAttempt {
  /** The watcher to hand to the read. */
  readonly watcher: Watcher;
  /** The read carrying `watcher` succeeded: the watch is armed unless it has fired already. */
  readonly confirm: () => void;
}

/**
 * Whether a one-shot watch that a recipe keeps setting again (a queue's children, a node it
 * keeps) is on the server right now, so that a read can skip setting a second one.
 *
 * The client calls a watcher as its event arrives, which can be before the code awaiting the
 * read that set it resumes: "armed" is therefore taken on when that read succeeds only if its
 * watch has not fired in between (otherwise every later change would be missed). Only the
 * latest watch counts: an older one that fires late says nothing about the current one, and
 * `onFire` is told so.
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
    let fired = false;
    return {
      watcher: (event) => {
        fired = true;
        const current = this.#latest === token;
        if (current) this.#armed = false;
        this.#onFire(event, current);
      },
      confirm: () => {
        if (!fired && this.#latest === token) this.#armed = true;
      },
    };
  }

  /** Forget the armed watch (it is known to be gone). */
  disarm(): void {
    this.#armed = false;
  }
}
