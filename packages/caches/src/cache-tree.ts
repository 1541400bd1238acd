import pLimit, { type LimitFunction } from 'p-limit';
import {
  isClosed,
  isNoNode,
  isRetryable,
  joinPath,
  type FrameworkClient,
  type Stat,
  type WatchedEvent,
} from '@zkrecipes/framework';
import type { ChildData } from './child-data.js';
import type { CuratorCacheNodeEvent } from './curator-cache-event.js';

/** What a {@link CacheTree} needs besides the client and the root. */
export interface CacheTreeOptions {
  /** The subtree (true) or the root alone (false). */
  readonly recursive: boolean;
  /** Keep the bytes in the storage (events carry the new bytes either way). */
  readonly cacheData: boolean;
  /** Reads and listings in flight at most. */
  readonly concurrency: number;
  /** Decompress the data read (CuratorCache's `compressedData`). */
  readonly compressed: boolean;
  /** Aborted at close: every request stops waiting. */
  readonly signal: AbortSignal;
  /** A change of the storage, called synchronously after it is applied. */
  readonly emit: (event: CuratorCacheNodeEvent) => void;
  /** A read or listing that failed for another reason than the connection. */
  readonly report: (error: unknown, context: string) => void;
}

/** One full read of the tree: counts its requests the way Curator's OutstandingOps does. */
interface Pass {
  outstanding: number;
  /** A request failed (other than NO_NODE): the listings it made prove nothing. */
  failed: boolean;
  /** A request failed for the connection: the tree was not all read. */
  incomplete: boolean;
  /** Every path this pass has read or is reading: each node once. */
  readonly visited: Set<string>;
  readonly done: (complete: boolean) => void;
}

/**
 * The storage of a CuratorCache and the reads that keep it equal to the server.
 *
 * Between reconnects one persistent recursive watch reports every create, data change and
 * delete: a created or changed node is read, a deleted one is dropped, nothing is listed. A
 * pass ({@link sync}) reads the root and every stored node again and lists the children of each
 * node whose cversion moved since its last complete listing, reading what is new: the initial
 * load, and the resync after a reconnect or a new session (changes made meanwhile were not
 * reported). Differences found come out as ordinary events.
 *
 * Events and replies interleave, so every event about a node takes a ticket (a counter): a
 * read applies only if no later event concerned its node; whatever came later decides.
 * Requests go through p-limit (one for passes, one for events, so a re-read of a large tree
 * does not delay the changes); concurrent unwatched reads share multiRead requests in the
 * framework. No limit depends on the number of nodes (CURATOR-690 was a 65,535-party Phaser
 * counting outstanding reads): counters are plain numbers.
 */
export class CacheTree {
  readonly storage = new Map<string, ChildData>();
  readonly #client: FrameworkClient;
  readonly #root: string;
  readonly #options: CacheTreeOptions;
  /** Requests of passes: a full re-read queues one read per node here. */
  readonly #limit: LimitFunction;
  /** Reads for watch events: never queued behind a pass, so changes show at once. */
  readonly #eventLimit: LimitFunction;
  /** The ticket of the last event or read concerning each node with a read out. */
  readonly #tickets = new Map<string, number>();
  /** Reads in flight per node; its ticket is forgotten when none is left. */
  readonly #reading = new Map<string, number>();
  /** The cversion of each node's last listing whose children were all read. */
  readonly #listedCversion = new Map<string, number>();
  #lastTicket = 0;
  #closed = false;

  constructor(client: FrameworkClient, root: string, options: CacheTreeOptions) {
    this.#client = client;
    this.#root = root;
    this.#options = options;
    this.#limit = pLimit(options.concurrency);
    this.#eventLimit = pLimit(options.concurrency);
  }

  /** An event of the persistent watch. */
  onEvent(event: WatchedEvent): void {
    if (this.#closed || !this.#covers(event.path)) return;
    switch (event.type) {
      case 'NODE_CREATED':
      case 'NODE_DATA_CHANGED':
        this.#read(event.path, undefined);
        return;
      case 'NODE_DELETED':
        // Gone at once; a read still out must not bring it back.
        if (this.#reading.has(event.path)) this.#take(event.path);
        this.#remove(event.path);
        return;
      default:
        return; // NODE_CHILDREN_CHANGED of a non-recursive watch: children are not cached
    }
  }

  /**
   * Reads the whole tree again (see the class comment). Resolves true when every node was
   * read, false when a request failed for the connection (the next reconnect runs another).
   */
  sync(): Promise<boolean> {
    return new Promise<boolean>((done) => {
      const pass: Pass = {
        outstanding: 0,
        failed: false,
        incomplete: false,
        visited: new Set(),
        done,
      };
      const paths = [this.#root, ...this.storage.keys()];
      for (const path of paths) pass.visited.add(path);
      // visited is complete before any reply can list children.
      for (const path of pass.visited) this.#read(path, pass);
    });
  }

  /** Stops every read; requests out reject, their results are ignored. */
  close(clearStorage: boolean): void {
    this.#closed = true;
    this.#limit.clearQueue();
    this.#eventLimit.clearQueue();
    if (clearStorage) this.storage.clear();
  }

  #read(path: string, pass: Pass | undefined): void {
    const ticket = this.#take(path);
    this.#reading.set(path, (this.#reading.get(path) ?? 0) + 1);
    if (pass) pass.outstanding += 1;
    const signal = this.#options.signal;
    const limit = pass ? this.#limit : this.#eventLimit;
    limit(() => this.#client.getData(path, { signal, compressed: this.#options.compressed }))
      .then(
        ({ data, stat }) => {
          const latest = this.#settle(path, ticket);
          if (this.#closed) return;
          if (latest) this.#put(path, data, stat);
          if (pass && this.#options.recursive) this.#listIfChanged(path, stat, pass);
        },
        (error: unknown) => {
          const latest = this.#settle(path, ticket);
          if (this.#closed) return;
          if (isNoNode(error)) {
            if (latest) this.#remove(path);
            return;
          }
          // A child its parent's listing counted on is not stored: list that parent next time.
          this.#listedCversion.delete(parentOf(path));
          this.#failed(pass, error, `reading ${path}`);
        },
      )
      .catch((error: unknown) => this.#options.report(error, `applying ${path}`))
      .finally(() => this.#end(pass));
  }

  /** Lists the node's children unless its last complete listing is as new; reads new ones. */
  #listIfChanged(path: string, stat: Stat, pass: Pass): void {
    if (this.#listedCversion.get(path) === stat.cversion) return;
    if (stat.numChildren === 0) {
      this.#listedCversion.set(path, stat.cversion);
      return;
    }
    pass.outstanding += 1;
    const signal = this.#options.signal;
    this.#limit(() => this.#client.getChildren(path, { stat: true, signal }))
      .then(
        ({ children, stat: listed }) => {
          if (this.#closed) return;
          for (const child of children) {
            const childPath = joinPath(path, child);
            if (pass.visited.has(childPath)) continue;
            pass.visited.add(childPath);
            this.#read(childPath, pass);
          }
          this.#listedCversion.set(path, listed.cversion);
        },
        (error: unknown) => {
          // NO_NODE: deleted since the read; its event drops it.
          if (!this.#closed && !isNoNode(error)) this.#failed(pass, error, `listing ${path}`);
        },
      )
      .catch((error: unknown) => this.#options.report(error, `listing ${path}`))
      .finally(() => this.#end(pass));
  }

  #failed(pass: Pass | undefined, error: unknown, context: string): void {
    const connection = isRetryable(error) || isClosed(error);
    if (pass) {
      pass.failed = true;
      if (connection) pass.incomplete = true;
    }
    // A failure for the connection is made good by the pass after the reconnect.
    if (!connection) this.#options.report(error, context);
  }

  #end(pass: Pass | undefined): void {
    if (pass === undefined) return;
    pass.outstanding -= 1;
    if (pass.outstanding > 0) return;
    // Listings of a pass that missed reads may vouch for children never stored.
    if (pass.failed) this.#listedCversion.clear();
    pass.done(!pass.incomplete && !this.#closed);
  }

  #put(path: string, data: Buffer, stat: Stat): void {
    const previous = this.storage.get(path);
    if (previous !== undefined && previous.stat.czxid === stat.czxid) {
      if (stat.mzxid < previous.stat.mzxid) return; // an older read
      if (stat.mzxid === previous.stat.mzxid) {
        // Same data; the Stat may still have moved (children, ACL).
        this.storage.set(path, { ...previous, stat });
        return;
      }
    }
    const node: ChildData = { path, stat, data };
    this.storage.set(path, this.#options.cacheData ? node : { path, stat, data: undefined });
    if (previous === undefined) {
      this.#options.emit({ type: 'NODE_CREATED', oldData: undefined, data: node });
    } else {
      this.#options.emit({ type: 'NODE_CHANGED', oldData: previous, data: node });
    }
  }

  #remove(path: string): void {
    const previous = this.storage.get(path);
    if (previous === undefined) return;
    this.storage.delete(path);
    this.#listedCversion.delete(path);
    this.#options.emit({ type: 'NODE_DELETED', oldData: previous, data: undefined });
  }

  /** True when `ticket` is still the node's latest; forgets the ticket with its last read. */
  #settle(path: string, ticket: number): boolean {
    const latest = this.#tickets.get(path) === ticket;
    const left = (this.#reading.get(path) ?? 1) - 1;
    if (left > 0) {
      this.#reading.set(path, left);
    } else {
      this.#reading.delete(path);
      this.#tickets.delete(path);
    }
    return latest;
  }

  #take(path: string): number {
    this.#lastTicket += 1;
    this.#tickets.set(path, this.#lastTicket);
    return this.#lastTicket;
  }

  #covers(path: string): boolean {
    if (path === this.#root) return true;
    if (!this.#options.recursive) return false;
    const prefix = this.#root === '/' ? '/' : `${this.#root}/`;
    return path.startsWith(prefix);
  }
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}
