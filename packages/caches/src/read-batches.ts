/** A set of children whose reads someone waits for (INITIALIZED, rebuild, BUILD_INITIAL_CACHE). */
export interface ReadBatch {
  /** The children still unread: a read applied (or found the child gone) removes one. */
  readonly pending: Set<string>;
  /** Apply the reads without events (Curator's rebuild). */
  readonly silent: boolean;
  /** Reject on the first failure instead of waiting for the next listing or reconnect. */
  readonly failFast: boolean;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Options of a batch: see {@link ReadBatch}. */
export interface ReadBatchOptions {
  readonly silent: boolean;
  readonly failFast: boolean;
}

/**
 * Counts outstanding child reads per waiter, the way Curator's PathChildrenCache tracks its
 * initial set: a batch is attached to one listing, takes every child that listing reads, and
 * resolves when each of them has been read or has vanished (so INITIALIZED comes even when a
 * child is deleted during the load, CURATOR-476).
 */
export class ReadBatches {
  readonly #active = new Set<ReadBatch>();
  #waiting: ReadBatch[] = [];
  /** Taken by the listing under way, not attached yet: close() must still reach them. */
  readonly #listing = new Set<ReadBatch>();

  /** A batch for the next listing (the caller requests that listing). */
  forNextListing(options: ReadBatchOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ pending: new Set(), ...options, resolve, reject });
    });
  }

  /** A batch for children already known (rebuildNode); the caller reads them. */
  forChildren(children: Iterable<string>, options: ReadBatchOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#active.add({ pending: new Set(children), ...options, resolve, reject });
    });
  }

  /** The batches waiting for a listing; the listing about to start takes them. */
  takeWaiting(): ReadBatch[] {
    const batches = this.#waiting;
    this.#waiting = [];
    for (const batch of batches) this.#listing.add(batch);
    return batches;
  }

  /** The listing succeeded and added its reads to `batches`: they count from now on. */
  attach(batches: readonly ReadBatch[]): void {
    for (const batch of batches) {
      this.#listing.delete(batch);
      this.#active.add(batch);
      this.#check(batch);
    }
  }

  /** The listing found nothing to read (the parent is missing): `batches` are done. */
  listedNothing(batches: readonly ReadBatch[]): void {
    for (const batch of batches) {
      this.#listing.delete(batch);
      batch.resolve();
    }
  }

  /** The listing failed: fail-fast batches reject, the others wait for the next listing. */
  listingFailed(batches: readonly ReadBatch[], error: unknown): void {
    for (const batch of batches) {
      this.#listing.delete(batch);
      if (batch.failFast) batch.reject(error);
      else this.#waiting.push(batch);
    }
  }

  /** The child's outcome is known (read, or gone). */
  settle(child: string): void {
    for (const batch of this.#active) {
      if (batch.pending.delete(child)) this.#check(batch);
    }
  }

  /** A read failed: fail-fast batches waiting for it reject; the others keep waiting. */
  readFailed(child: string, error: unknown): void {
    for (const batch of this.#active) {
      if (batch.failFast && batch.pending.has(child)) {
        this.#active.delete(batch);
        batch.reject(error);
      }
    }
  }

  /** Every batch, active, being listed or waiting, rejects with `error`. */
  rejectAll(error: unknown): void {
    for (const batch of [...this.#active, ...this.#listing, ...this.#waiting]) batch.reject(error);
    this.#active.clear();
    this.#listing.clear();
    this.#waiting = [];
  }

  #check(batch: ReadBatch): void {
    if (batch.pending.size > 0 || !this.#active.delete(batch)) return;
    batch.resolve();
  }
}
