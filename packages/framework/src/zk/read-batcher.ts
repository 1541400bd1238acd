import type { MultiReadOutcome } from './zookeeper-requests.js';
import type { Stat } from './zookeeper-types.js';

type Read = { data: Buffer; stat: Stat };

interface Waiting {
  readonly path: string;
  readonly resolve: (read: Read) => void;
  readonly reject: (error: unknown) => void;
}

/** What the batcher sends with: one read, or several in one multiRead. */
export interface ReadSender {
  single(path: string): Promise<Read>;
  many(paths: readonly string[]): Promise<MultiReadOutcome[]>;
}

/** Reads in one multiRead at most: keeps a reply of large nodes from growing without bound. */
const MAX_BATCH = 64;

/**
 * Unwatched getData calls made together (in one run of the microtask and nextTick queues)
 * go out as one multiRead: one request and one reply instead of one per node, which costs
 * the server and this process much less per read (a cache loading a group, a queue reading
 * ahead). A call alone is sent as a plain getData. Each read fails on its own (NO_NODE for
 * one node does not fail the others).
 *
 * Only reads called back to back share a request: the connection flushes the batch before
 * sending any other request, so a read called before a write is answered before it.
 */
export class ReadBatcher {
  readonly #sender: ReadSender;
  #waiting: Waiting[] = [];

  constructor(sender: ReadSender) {
    this.#sender = sender;
  }

  read(path: string): Promise<Read> {
    return new Promise<Read>((resolve, reject) => {
      if (this.#waiting.length === 0) process.nextTick(() => this.flush());
      this.#waiting.push({ path, resolve, reject });
    });
  }

  /** Sends the reads waiting so far (a no-op when there are none). */
  flush(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (let start = 0; start < waiting.length; start += MAX_BATCH) {
      this.#send(waiting.slice(start, start + MAX_BATCH));
    }
  }

  #send(batch: Waiting[]): void {
    if (batch.length === 1) {
      const [only] = batch as [Waiting];
      this.#sender.single(only.path).then(only.resolve, only.reject);
      return;
    }
    this.#sender.many(batch.map((read) => read.path)).then(
      (outcomes) => {
        batch.forEach((read, i) => {
          const outcome = outcomes[i]!;
          if (outcome instanceof Error) read.reject(outcome);
          else read.resolve(outcome);
        });
      },
      (error: unknown) => {
        for (const read of batch) read.reject(error);
      },
    );
  }
}
