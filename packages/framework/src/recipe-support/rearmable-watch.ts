import type { WatchedEvent, WatchEventType, Watcher } from '../zk/zookeeper-types.js';

/** A watcher for one read, and what to call once that read has succeeded. */
export interface WatchAttempt {
  /** The watcher to hand to the read. */
  readonly watcher: Watcher;
  /** The read carrying `watcher` succeeded: call it as that read's await resumes. */
  readonly confirm: () => void;
  /** The type of the event this attempt's watch delivered; undefined until it fires. */
  readonly event: WatchEventType | undefined;
}

/**
 * Called for every event of every attempt. `current` is false for an attempt superseded by a
 * forced one (the watch of a node since replaced): its event says nothing about the new node.
 */
export type RearmableWatchListener = (
  event: WatchedEvent,
  current: boolean,
  attempt: WatchAttempt,
) => void;

/**
 * Whether a one-shot watch that a recipe keeps setting again (a queue's children, a node it
 * keeps, a cached node) is on the server right now, so that a read can skip setting a second
 * one: the one place recipes (and the caches' per-client WatchHub) keep that answer.
 *
 * "Armed" is taken on when the read that set the watch succeeds ({@link WatchAttempt.confirm})
 * and dropped when its event is delivered (a new session delivers SESSION_EXPIRED, so it drops
 * then too). The client's ordering contract (docs/framework/connection-states.md) makes that
 * sound: the watch's event is delivered after the code awaiting that read resumed, so it
 * always finds the watch armed and clears it.
 *
 * Several attempts may be in flight (two readers that both found it unarmed): the last one
 * confirmed is the armed one, and only its event disarms. A forced attempt (`next(true)`)
 * supersedes every earlier one: those can no longer arm, and their events are not current.
 */
export class RearmableWatch {
  readonly #onFire: RearmableWatchListener;
  /** Attempts numbered from 1; those below `#floor` were superseded by a forced one. */
  #issued = 0;
  #floor = 0;
  #armed: WatchAttempt | undefined;

  constructor(onFire: RearmableWatchListener) {
    this.#onFire = onFire;
  }

  /** The latest confirmed watch was set, and has not fired since. */
  get armed(): boolean {
    return this.#armed !== undefined;
  }

  /**
   * A watcher for the next read; undefined while armed (no second watch needed), unless
   * `force` (the node is being replaced: the armed watch belongs to the old one).
   */
  next(force = false): WatchAttempt | undefined {
    if (this.#armed !== undefined && !force) return undefined;
    const number = ++this.#issued;
    if (force) {
      this.#floor = number;
      this.#armed = undefined;
    }
    let event: WatchEventType | undefined;
    const attempt: WatchAttempt = {
      watcher: (fired) => {
        event = fired.type;
        if (this.#armed === attempt) this.#armed = undefined;
        this.#onFire(fired, number >= this.#floor, attempt);
      },
      confirm: () => {
        // A fired watch is no longer on the server; a superseded one belongs to the old node.
        if (event === undefined && number >= this.#floor) this.#armed = attempt;
      },
      get event() {
        return event;
      },
    };
    return attempt;
  }

  /** Forget the armed watch (it is known to be gone). */
  disarm(): void {
    this.#armed = undefined;
  }
}
