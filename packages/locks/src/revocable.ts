// Curator's `Revocable` (InterProcessMutex.makeRevocable) for every reentrant lock: the mutex
// and both halves of the read/write lock, which are InterProcessMutexes in Curator. The holder's
// side: the next attempt's node starts empty and is watched for `__REVOKE__`.
import type { FrameworkClient } from '@zkrecipes/framework';
import { checkListener, reportRecipeFailure } from '@zkrecipes/framework/recipe-support';
import type { AttemptShape } from './reentrant-core.js';
import { type RevocationListener, RevocationWatch } from './revocation-watch.js';

/** A revocable lock's node starts empty, as Curator's (whatever the lock's data says). */
const NO_DATA = new Uint8Array(0);

/** @internal One lock's revocation listener and the watch on its nodes. */
export class Revocable {
  readonly #client: FrameworkClient;
  readonly #lock: object;
  #listener: RevocationListener<object> | undefined;
  #watch: RevocationWatch | undefined;

  constructor(client: FrameworkClient, lock: object) {
    this.#client = client;
    this.#lock = lock;
  }

  /**
   * Makes the attempts that start from now on revocable (Curator's `makeRevocable`).
   * `listener` is called with the lock given to the constructor, so it must take that type.
   */
  set(listener: RevocationListener<never>): void {
    checkListener(listener);
    this.#listener = listener as RevocationListener<object>;
  }

  /** True while a listener is set or a revocation watch may be running. */
  get active(): boolean {
    return this.#listener !== undefined || this.#watch !== undefined;
  }

  /** `shape` with what a revocable attempt adds: empty node data, and the node watched. */
  shape(shape: AttemptShape): AttemptShape {
    if (this.#listener === undefined) return shape;
    const watch = (this.#watch ??= new RevocationWatch(this.#client, () => this.#revoked()));
    return { ...shape, data: NO_DATA, onCreated: (path) => watch.watch(path) };
  }

  /** The lock was given back: forget the listener and stop watching, as Curator's release does. */
  clear(): void {
    this.#listener = undefined;
    this.#watch?.stop();
  }

  #revoked(): void {
    const listener = this.#listener;
    if (listener === undefined) return;
    queueMicrotask(() => {
      try {
        const result = listener(this.#lock);
        if (result instanceof Promise) {
          result.catch((error: unknown) =>
            reportRecipeFailure(this.#client, undefined, error, 'revocation listener'),
          );
        }
      } catch (error) {
        reportRecipeFailure(this.#client, undefined, error, 'revocation listener');
      }
    });
  }
}
