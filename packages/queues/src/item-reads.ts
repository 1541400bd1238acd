// The data of queue items, read ahead of the takes that need it: bounded (p-limit), one read per
// item, and each read's result kept with it, so a take whose item is read already claims it
// without waiting at all. Reads are shared by every take of a taker, so none of them carries a
// call's limits: a take that gives up leaves them running for the next one.
import pLimit, { type LimitFunction } from 'p-limit';
import { type FrameworkClient, isNoNode } from '@zkrecipes/framework';

/** An item's data at the version read; undefined when the item is gone. */
export type ItemRead = { readonly data: Buffer; readonly version: number } | undefined;

/** How a read ended: never a rejection, so a read nobody waits for is still handled. */
export type ReadResult =
  { readonly ok: true; readonly item: ItemRead } | { readonly ok: false; readonly error: unknown };

/** A read under way or done; `settled` is filled in when it is done. */
export interface DataRead {
  readonly promise: Promise<ReadResult>;
  settled?: ReadResult;
}

export class ItemReads {
  readonly #client: FrameworkClient;
  /** `<queuePath>/`: item paths are this plus the name. */
  readonly #itemPrefix: string;
  readonly #limit: LimitFunction;
  readonly #reads = new Map<string, DataRead>();

  /** At most `concurrency` reads in flight at once. */
  constructor(client: FrameworkClient, itemPrefix: string, concurrency: number) {
    this.#client = client;
    this.#itemPrefix = itemPrefix;
    this.#limit = pLimit(concurrency);
  }

  /** Whether the item is read or being read. */
  has(name: string): boolean {
    return this.#reads.has(name);
  }

  /** The item's read, started now if there is none. */
  of(name: string): DataRead {
    return this.#reads.get(name) ?? this.#start(name);
  }

  /** The item's data (read now if need be); rejects when the read failed. */
  async dataOf(name: string): Promise<ItemRead> {
    const read = this.of(name);
    return this.itemOf(name, read.settled ?? (await read.promise));
  }

  /** The item a read found; a failed read is forgotten (the next attempt reads again). */
  itemOf(name: string, result: ReadResult): ItemRead {
    if (!result.ok) {
      this.#reads.delete(name);
      throw result.error;
    }
    return result.item;
  }

  /** Forgets the item's data (taken, changed, gone). */
  forget(name: string): void {
    this.#reads.delete(name);
  }

  /** Forgets the data of every item not in `present` (the latest listing). */
  keepOnly(present: ReadonlySet<string>): void {
    for (const name of this.#reads.keys()) if (!present.has(name)) this.#reads.delete(name);
  }

  /** Forgets everything. */
  clear(): void {
    this.#reads.clear();
  }

  #start(name: string): DataRead {
    const path = this.#itemPrefix + name;
    const read: DataRead = {
      promise: this.#limit(async (): Promise<ReadResult> => {
        try {
          const { data, stat } = await this.#client.getData(path);
          read.settled = { ok: true, item: { data, version: stat.version } };
        } catch (error) {
          read.settled = isNoNode(error) ? { ok: true, item: undefined } : { ok: false, error };
        }
        return read.settled;
      }),
    };
    this.#reads.set(name, read);
    return read;
  }
}
