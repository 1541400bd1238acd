import { merge, Subject } from 'rxjs';
import {
  InvalidArgumentError,
  isClosed,
  isNoNode,
  isOutcomeUnknown,
  isRetryable,
  iterableObservable,
  MAX_TTL_MS,
  type IterableObservable,
  type SignalOptions,
  validatePath,
  type FrameworkClient,
  type Logger,
} from '@zkrecipes/framework';
import {
  booleanOption,
  checkClient,
  checkRecipeOptions,
  EventDispatcher,
  NOT_CONNECTED,
  positiveIntegerOption,
  whileConnected,
} from '@zkrecipes/framework/recipe-support';
import type { RecipeError, RecipeState } from '@zkrecipes/caches';
import { PersistentNode, type WaitForInitialCreateOptions } from './persistent-node.js';

/** Options of {@link PersistentTtlNode}. */
export interface PersistentTtlNodeOptions {
  /** The node's data. Default: empty. */
  readonly data?: Uint8Array | undefined;
  /** The name of the child kept alive under the node. Default: `'touch'` (Curator's). */
  readonly childNodeName?: string | undefined;
  /** The child is touched every `ttlMs / touchScheduleFactor`. Default: 2. */
  readonly touchScheduleFactor?: number | undefined;
  /** Create missing parents (Curator's `useParentCreation`). Default: true. */
  readonly createParents?: boolean | undefined;
}

/**
 * A node that lives as long as someone keeps it, and a TTL after that (Curator 5.4's
 * `PersistentTtlNode`): the node itself is a CONTAINER kept in place by a PersistentNode, and
 * under it a `touch` child is created PERSISTENT_WITH_TTL after `ttlMs / 2` and set every
 * `ttlMs / 2` from then on. Once nobody touches the child, the server deletes it when its TTL
 * runs out, and then the emptied container. The touches write the child only, so watchers of
 * the node see no change from them. `close()` deletes nothing: the node goes by its TTL, unless
 * another PersistentTtlNode keeps it.
 *
 * The server must run with `zookeeper.extendedTypesEnabled=true`; without it every touch fails
 * with an UnimplementedError (on {@link errors}) and the node is never reaped.
 */
export class PersistentTtlNode {
  /** Curator's `DEFAULT_CHILD_NODE_NAME`. */
  static readonly DEFAULT_CHILD_NODE_NAME = 'touch';
  /** Curator's `DEFAULT_TOUCH_SCHEDULE_FACTOR`. */
  static readonly DEFAULT_TOUCH_SCHEDULE_FACTOR = 2;

  readonly #client: FrameworkClient;
  readonly #node: PersistentNode;
  readonly #ttlMs: number;
  readonly #childPath: string;
  readonly #periodMs: number;
  readonly #closer = new AbortController();
  readonly #touchErrors: EventDispatcher<never>;
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | undefined;
  #touching = false;

  constructor(
    client: FrameworkClient,
    path: string,
    ttlMs: number,
    options: PersistentTtlNodeOptions = {},
  ) {
    checkClient('PersistentTtlNode', client);
    validatePath(path, { allowRoot: false });
    if (!(Number.isInteger(ttlMs) && ttlMs >= 1 && ttlMs <= MAX_TTL_MS)) {
      throw new InvalidArgumentError(
        `ttlMs must be a whole number from 1 to ${MAX_TTL_MS}; got ${String(ttlMs)}`,
        { path },
      );
    }
    checkRecipeOptions('PersistentTtlNode', options, [
      'data',
      'childNodeName',
      'touchScheduleFactor',
      'createParents',
    ]);
    const childName = options.childNodeName ?? PersistentTtlNode.DEFAULT_CHILD_NODE_NAME;
    this.#childPath = `${path}/${String(childName)}`;
    validatePath(this.#childPath);
    if (typeof childName !== 'string' || childName.includes('/')) {
      throw new InvalidArgumentError('childNodeName must be a node name without "/"', { path });
    }
    const factor = positiveIntegerOption(
      'touchScheduleFactor',
      options.touchScheduleFactor,
      PersistentTtlNode.DEFAULT_TOUCH_SCHEDULE_FACTOR,
    );
    const createParents = booleanOption('createParents', options.createParents, true);
    this.#client = client;
    this.#ttlMs = ttlMs;
    this.#periodMs = Math.max(1, Math.floor(ttlMs / factor));
    this.#logger = client.logger.child({ component: 'PersistentTtlNode', path });
    this.#touchErrors = new EventDispatcher(new Subject(), client, 'touch');
    this.#node = new PersistentNode(client, path, 'CONTAINER', options.data, {
      createParents,
      deleteOnClose: false,
    });
  }

  /** LATENT until start(), STARTED, CLOSED after close(). */
  get state(): RecipeState {
    return this.#node.state;
  }

  /** The node's time to live once nobody touches it. */
  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** A copy of the data the node is kept with (Curator's `getData()`). */
  get data(): Buffer {
    return this.#node.data;
  }

  /** Background failures: the node's creates and writes, and touches that failed. */
  get errors(): IterableObservable<RecipeError> {
    return iterableObservable(merge(this.#node.errors, this.#touchErrors.errors));
  }

  /** Starts keeping the node and touching its child. A second start rejects. */
  async start(): Promise<void> {
    await this.#node.start();
    this.#timer = setInterval(() => void this.#touch(), this.#periodMs);
    this.#timer.unref();
  }

  /** Resolves true once the node has been created, false on timeout, abort or close. */
  waitForInitialCreate(options: WaitForInitialCreateOptions = {}): Promise<boolean> {
    return this.#node.waitForInitialCreate(options);
  }

  /**
   * Sets the node's data and writes it; resolves once the server holds it. Aborting `signal`
   * ends the wait, not the write (see PersistentNode.setData).
   */
  setData(data: Uint8Array, options: SignalOptions = {}): Promise<void> {
    return this.#node.setData(data, options);
  }

  /** Stops touching and keeping the node; deletes nothing (the node goes by its TTL). Twice is a no-op. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#closer.abort();
    await this.#node.close();
    this.#touchErrors.close();
  }

  /** Calls `close()`, so `await using` releases this at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * Curator's touch: set the child's data (renewing its TTL, which counts from mtime), or
   * create it when missing. Sent only while connected (an outage skips touches instead of
   * queueing them), one at a time.
   */
  async #touch(): Promise<void> {
    if (this.#touching || this.#closer.signal.aborted) return;
    this.#touching = true;
    const connection = whileConnected(this.#client);
    const signal = AbortSignal.any([connection.signal, this.#closer.signal]);
    try {
      try {
        await this.#client.setData(this.#childPath, Buffer.alloc(0), { signal });
      } catch (error) {
        if (!isNoNode(error) && !isOutcomeUnknown(error, 'NO_NODE')) throw error;
        await this.#client.create(this.#childPath, {
          mode: 'PERSISTENT_WITH_TTL',
          ttlMs: this.#ttlMs,
          orSetData: true,
          signal,
        });
      }
    } catch (error) {
      // The node itself is gone for now (its keeper re-creates it): the next touch makes the
      // child. Connection trouble is the next touch's to ride out, as in Curator.
      if (isNoNode(error) || isClosed(error) || signal.aborted || error === NOT_CONNECTED) return;
      if (isRetryable(error)) {
        this.#logger.debug('could not touch the child node', { node: this.#childPath, error });
        return;
      }
      this.#touchErrors.report(error, `touch ${this.#childPath}`);
    } finally {
      connection.dispose();
      this.#touching = false;
    }
  }
}
