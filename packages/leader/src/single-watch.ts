// The latch acts on one watch at a time: the node just ahead of it, or its own node while it
// leads. Setting a watch on another node silences the previous one (the wire client cannot
// remove a watch from the server; a silenced one fires into nothing).
import { isNoNode, type FrameworkClient, type Stat, type WatchedEvent } from '@zkrecipes/framework';
import { onAbort, WITHDRAWN } from '@zkrecipes/framework/recipe-support';

/** Reads nodes with a watch, keeping only the latest watch alive. */
export class SingleWatch {
  readonly #client: FrameworkClient;
  readonly #closed: AbortSignal;
  readonly #onFire: (event: WatchedEvent) => void;
  #current: { readonly path: string; readonly silence: AbortController } | undefined;

  /**
   * `onFire` runs when the live watch fires (at most once per watch). `closed` (the recipe's
   * close) ends every read at once and silences the watch for good.
   */
  constructor(client: FrameworkClient, closed: AbortSignal, onFire: (event: WatchedEvent) => void) {
    this.#client = client;
    this.#closed = closed;
    this.#onFire = onFire;
    onAbort(closed, () => this.silence());
  }

  /**
   * The node's Stat, or undefined when it does not exist. Watches it (getData rather than
   * exists: on a node already gone, exists would leave a watch behind) unless it is the node
   * already watched, whose watch has not fired yet.
   */
  async read(path: string): Promise<Stat | undefined> {
    try {
      if (this.#current?.path === path) {
        return (await this.#client.getData(path, { signal: this.#closed })).stat;
      }
      this.silence();
      this.#closed.throwIfAborted();
      const watch = { path, silence: new AbortController() };
      this.#current = watch;
      const onEvent = (event: WatchedEvent): void => {
        if (this.#current === watch) this.#current = undefined;
        this.#onFire(event);
      };
      try {
        const { stat } = await this.#client.getData(path, {
          watch: onEvent,
          signal: watch.silence.signal,
        });
        return stat;
      } catch (error) {
        if (this.#current === watch) this.silence();
        throw error;
      }
    } catch (error) {
      if (isNoNode(error)) return undefined;
      throw error;
    }
  }

  /** Silences the live watch, if any (its read, if still out, rejects). */
  silence(): void {
    if (this.#current !== undefined) this.#current.silence.abort(WITHDRAWN);
    this.#current = undefined;
  }
}
