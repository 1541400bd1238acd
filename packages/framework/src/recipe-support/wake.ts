// Waiting on a one-shot ZooKeeper watch with a deadline, an AbortSignal and the client's
// lifetime. Many recipe waits are "read with a watch, then wait for the watch (or give up)",
// so that shape lives here once, for every recipe package; the wait itself is waitForWake.
import type { WatchedEvent } from '../zk/zookeeper-types.js';

/**
 * A one-shot wake-up: pass `watch` and `signal` to a read, then wait on `event`. `cancel()`
 * silences the watcher (the server-side watch stays until it fires or the session ends: the
 * wire client cannot remove watches).
 */
export class Wake {
  readonly #controller = new AbortController();
  /** Resolves with the first event the watch delivers. */
  readonly event: Promise<WatchedEvent>;
  /** The watcher to pass to the read (`{ watch: wake.watch, signal: wake.signal }`). */
  readonly watch: (event: WatchedEvent) => void;

  constructor() {
    let fire: (event: WatchedEvent) => void = () => undefined;
    this.event = new Promise<WatchedEvent>((resolve) => (fire = resolve));
    this.watch = (event) => fire(event);
  }

  /** Aborted by {@link cancel}; the framework then never calls the watcher. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Silences the watcher from our side. */
  cancel(): void {
    this.#controller.abort();
  }
}
