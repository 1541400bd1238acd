// Plain-mode items a taker won after the take that claimed them gave up (its time ran out, its
// caller aborted): the delete went through, so the item is off the queue and only this taker
// has it. It goes to the next take, before anything else; one left when the queue closes is
// logged as lost, never dropped silently.
import type { Logger } from '@zkrecipes/framework';
import type { TakenItem } from './queue-taker.js';

export class LateItems {
  readonly #logger: Logger;
  readonly #items: TakenItem[] = [];
  #closed = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Whether any item waits for a take. */
  get waiting(): boolean {
    return this.#items.length > 0;
  }

  /** The oldest item, left in place. */
  first(): TakenItem | undefined {
    return this.#items[0];
  }

  /** Takes the oldest item. */
  next(): TakenItem | undefined {
    return this.#items.shift();
  }

  /** Keeps an item won late for the next take; after close, reports it lost. */
  add(item: TakenItem): void {
    if (this.#closed) this.#lost(item);
    else this.#items.push(item);
  }

  /** The queue closed: no take will come for the items kept. */
  close(): void {
    this.#closed = true;
    for (const item of this.#items.splice(0)) this.#lost(item);
  }

  #lost(item: TakenItem): void {
    this.#logger.error(
      'an item was taken after its take() gave up, and the queue closed before another take: ' +
        'it is lost',
      { path: item.path },
    );
  }
}
